// The operator's configuration file: found (--config, HASHLINE_CONFIG, else hashline.toml at the
// root), validated at start (a bad file stops the start), then followed: when its bytes change it is
// parsed again; a valid change makes a new generation (when what it means changed: comments and
// key order do not count), an invalid one keeps the last good generation and is reported.

import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { parseConfigText } from '../../core/config/config-parse.js';
import { resolveSettings, settingsIdentity, type ConfigDoc, type Settings } from '../../core/config/config-schema.js';
import { HashlineError, toHashlineError } from '../../core/errors/errors.js';

export const DEFAULT_CONFIG_NAME = 'hashline.toml';

export interface ConfigState {
  /** 1 at start; +1 for every change of what the configuration means. */
  readonly generation: number;
  /** A hash of the effective settings. */
  readonly identity: string;
  readonly settings: Settings;
  /** The file the settings came from; undefined when none exists (defaults). */
  readonly file: string | undefined;
  /** Why the newest edit of the file was refused (the generation above stays in force). */
  readonly lastError: { readonly message: string; readonly at: string } | undefined;
}

export interface ConfigLocation {
  readonly path: string;
  /** Named by --config or HASHLINE_CONFIG: it must exist. */
  readonly explicit: boolean;
}

/** Where the configuration is: the flag, then the environment, then hashline.toml at the root. */
export function locateConfig(flag: string | undefined, root: string, env: NodeJS.ProcessEnv = process.env): ConfigLocation {
  if (flag !== undefined && flag !== '') return { path: path.resolve(flag), explicit: true };
  const fromEnv = env.HASHLINE_CONFIG;
  if (fromEnv !== undefined && fromEnv !== '') return { path: path.resolve(fromEnv), explicit: true };
  return { path: path.join(root, DEFAULT_CONFIG_NAME), explicit: false };
}

function stamp(file: string): string | null {
  try {
    // a missing file answers undefined rather than throwing (an error object per look costs more than the stat)
    const st = statSync(file, { bigint: true, throwIfNoEntry: false });
    if (st === undefined) return null;
    return `${st.dev}:${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}`;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    throw e;
  }
}

function readDoc(file: string): ConfigDoc {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new HashlineError('config_invalid', `cannot read configuration \`${file}\`: ${(e as Error).message}`, { details: { file } });
  }
  return parseConfigText(file, text);
}

type Listener = (state: ConfigState) => void;

export class ConfigSource {
  private state: ConfigState;
  private seen: string | null;
  private readonly listeners: Listener[] = [];

  private constructor(
    readonly location: ConfigLocation | undefined,
    /** The document read at start (the engine configuration merges the command line over it). */
    readonly initialDoc: ConfigDoc,
    state: ConfigState,
    seen: string | null,
  ) {
    this.state = state;
    this.seen = seen;
  }

  /** Fixed settings, no file (library use and tests). */
  static fixed(doc: ConfigDoc = {}): ConfigSource {
    const settings = resolveSettings(doc);
    return new ConfigSource(undefined, doc, { generation: 1, identity: settingsIdentity(settings), settings, file: undefined, lastError: undefined }, null);
  }

  /** Loads the configuration at start. Throws `config_invalid` (an explicit file must exist and parse). */
  static open(location: ConfigLocation): ConfigSource {
    const seen = stamp(location.path);
    if (seen === null) {
      if (location.explicit) {
        throw new HashlineError('config_invalid', `configuration file \`${location.path}\` does not exist`, { details: { file: location.path } });
      }
      const settings = resolveSettings({});
      return new ConfigSource(location, {}, { generation: 1, identity: settingsIdentity(settings), settings, file: undefined, lastError: undefined }, null);
    }
    const doc = readDoc(location.path);
    const settings = resolveSettings(doc);
    return new ConfigSource(location, doc, { generation: 1, identity: settingsIdentity(settings), settings, file: location.path, lastError: undefined }, seen);
  }

  /** The settings in force, without looking at the file. */
  get current(): ConfigState {
    return this.state;
  }

  onChange(listener: Listener): void {
    this.listeners.push(listener);
  }

  /** Looks at the file (one stat) and reloads it when it changed. Returns the state in force. */
  refresh(): ConfigState {
    const location = this.location;
    if (location === undefined) return this.state;
    let now: string | null;
    try {
      now = stamp(location.path);
    } catch (e) {
      return this.keep(`cannot look at \`${location.path}\`: ${(e as Error).message}`, null);
    }
    if (now === this.seen) return this.state;
    if (now === null) {
      // An explicit file that disappeared keeps its last settings; the default file's absence means defaults.
      if (location.explicit) return this.keep(`configuration file \`${location.path}\` is gone; keeping generation ${this.state.generation}`, now);
      return this.adopt(resolveSettings({}), undefined, now);
    }
    let doc: ConfigDoc;
    try {
      doc = readDoc(location.path);
    } catch (e) {
      return this.keep(`${toHashlineError(e).message}; keeping generation ${this.state.generation}`, now);
    }
    return this.adopt(resolveSettings(doc), location.path, now);
  }

  private keep(message: string, seen: string | null): ConfigState {
    this.seen = seen;
    this.state = { ...this.state, lastError: { message, at: new Date().toISOString() } };
    return this.state;
  }

  private adopt(settings: Settings, file: string | undefined, seen: string | null): ConfigState {
    this.seen = seen;
    const identity = settingsIdentity(settings);
    if (identity === this.state.identity) {
      this.state = { ...this.state, file, lastError: undefined };
      return this.state;
    }
    this.state = { generation: this.state.generation + 1, identity, settings, file, lastError: undefined };
    for (const l of this.listeners) l(this.state);
    return this.state;
  }
}

// The rules for a program hashline starts (a formatter): the pure half. Which environment it gets
// (an allow list of names: the locale, home, temp dirs and toolchain homes, never the server's
// token, a history URL or a database password; PATH without relative entries or entries the
// agent can write), which programs are launchers that look a program up in the project (npx and
// the like: refused), and which literal arguments name files to check like the program itself.
// The real-path half is io/program-check.ts.

/** Environment names passed to a formatter; `LC_*` too. Everything else is left out. */
const KEPT_ENV = new Set([
  'PATH', 'HOME', 'USER', 'LOGNAME', 'SHELL', 'LANG', 'LANGUAGE', 'TZ', 'TERM', 'NO_COLOR',
  'TMPDIR', 'TMP', 'TEMP', 'XDG_CONFIG_HOME', 'XDG_CACHE_HOME', 'XDG_DATA_HOME',
  'GOPATH', 'GOROOT', 'GOCACHE', 'GOMODCACHE', 'CARGO_HOME', 'RUSTUP_HOME', 'VIRTUAL_ENV', 'SYSTEMROOT',
]);

/**
 * The environment of a started program: only the kept names, and PATH without its relative
 * entries and those `unsafeDir` refuses (a directory some tool can write).
 */
export function programEnv(env: Readonly<Record<string, string | undefined>>, unsafeDir: (abs: string) => boolean): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) {
    if (v === undefined || !(KEPT_ENV.has(k) || k.startsWith('LC_'))) continue;
    out[k] = k === 'PATH' ? searchPath(v).filter((d) => !unsafeDir(d)).join(':') : v;
  }
  return out;
}

/** The absolute entries of a PATH value (relative ones, `.` and empty included, are dropped: they name the working directory). */
export function searchPath(value: string): string[] {
  return value.split(':').filter((d) => d.startsWith('/'));
}

/** Programs that find what they run in the project (its node_modules, its scripts): never started. */
const LAUNCHERS = new Set(['npx', 'pnpx', 'bunx', 'npm', 'pnpm', 'yarn', 'bun', 'deno', 'uvx', 'pipx']);

export function isLauncher(program: string): boolean {
  return LAUNCHERS.has(program.slice(program.lastIndexOf('/') + 1));
}

const SCRIPT = /\.(?:[cm]?[jt]sx?|py|sh|bash|rb|pl|php|lua)$/;

/** True when an argument names a script by its extension (an interpreter would run it). */
export function isScriptName(arg: string): boolean {
  return SCRIPT.test(arg);
}

/** The literal arguments (no placeholder, no option) that may name a file: a path or a script name. */
export function fileArguments(argv: readonly string[]): string[] {
  return argv.slice(1).filter((a) => !a.includes('{') && !a.startsWith('-') && (a.includes('/') || isScriptName(a)));
}

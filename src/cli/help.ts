// The help texts of `hashline` and of each subcommand (`hashline mcp --help`). Kept apart from the
// commands so printing help loads none of them.

import { VERSION } from '../version.js';
import { NODE_SUPPORTED } from './node-support.js';

const ENGINE = `Where files may be read and written:
  --root DIR            the project folder: every path is relative to it or absolute inside it
  --allow PATH          admit exactly this file outside the root (repeatable)
  --block PATH          refuse this path and everything under it, even inside the root (repeatable)
  --read-allow PATH, --read-block PATH
                        when given, replace the allow/block lists for reads only
  --unrestricted-file-access
                        admit paths outside the root without --allow (blocks, read blocks, the
                        configuration file, the state directory and hashes still hold)
  --config FILE         the configuration file (also HASHLINE_CONFIG; default hashline.toml at the root)
  --tools LIST          tool names and/or the profiles hashline (navigation included), navigation,
                        boundary, all (default: all)
  --history STORE       sqlite|memory|off|postgres://...: where versions are kept (default sqlite:
                        one private file per root under $XDG_STATE_HOME/hashline/, shared by every
                        process of the root)
  --durability MODE     atomic|fsync: atomic (default) writes a temp file and renames it, never torn
                        by a crash of the process; fsync also flushes file and folder (power loss)

Formatters ([format] in the configuration) run only from outside every root and --allow entry
(never the project's node_modules/.bin, never through npx and the like), with a scrubbed
environment and a time limit.`;

export const HELP: Record<string, string> = {
  '': `hashline ${VERSION}: a safe file-system boundary for AI coding agents

Usage:
  hashline mcp [--root DIR] [flags]        serve the tools over MCP on stdio
  hashline serve [--root DIR] [flags]      serve the HTTP file API, and MCP at /mcp
  hashline read PATH [--lines A-B | --symbol NAME [--full]]
  hashline edit PATH --tag TAG (--ops FILE | -)
  hashline hash PATH...                    SHA-256 and 4-hex tag of files
  hashline rollback PATH [--to TAG]
  hashline history [PATH] [--show ID]      the durable history: versions and who changed what
  hashline lang list | add NAME... | remove NAME...   grammars for symbols and rewrites
  hashline config CLIENT [--root DIR]      the MCP client configuration for this copy: claude-desktop,
                                           claude-code, cursor, vscode, or http (for hashline serve)
  hashline --help | --version

The root is the folder the tools may touch. For mcp without --root, the client's MCP roots
decide; without either, the working directory. A server (mcp, serve) refuses / and the home
directory unless --root names them; read, edit, hash, rollback and history, which a person runs,
take the working directory as it is.
Run \`hashline COMMAND --help\` for the flags of a command. Runs on ${NODE_SUPPORTED}.
`,
  mcp: `Usage: hashline mcp [--root DIR] [--allow PATH]... [--block PATH]... [--read-allow PATH]...
                    [--read-block PATH]... [--unrestricted-file-access] [--config FILE] [--tools LIST]
                    [--history STORE]

Serves the tools over MCP on stdio (logs on stderr).

${ENGINE}

Without --root, the client's MCP roots decide, once it has initialized: absolute paths inside any
root are admitted, relative ones resolve against the first, and roots/list_changed is followed.
A client that offers no roots gets the working directory; when that is /, the home directory or a
folder holding it, nothing is served: every tool call answers an error naming --root. A client root that is /, the
home directory or a folder holding it is refused too: only --root may name such a folder.

Example client entry:  {"command": "npx", "args": ["-y", "hashline", "mcp", "--root", "/path/to/project"]}
`,
  serve: `Usage: hashline serve [--root DIR] [--host 127.0.0.1] [--port 9000] [--token-file FILE | --no-token]
                      [--allowed-host HOST]... [--max-body-bytes N] [--disk-reserve-bytes N]
                      [--max-tar-members N] [--max-tar-bytes N] [--body-idle-timeout-ms N]
                      [--request-timeout-ms N] [--lock-timeout-ms N] [engine flags]

Serves the HTTP file API (GET/PUT /v1/fs/file, GET/PUT /v1/fs/tar, GET /v1/schema), MCP over
Streamable HTTP at /mcp, and the web console at / (open it in a browser and log in with the token:
live activity, per-file timelines with diffs, rollback, the guard). The token may also come from
HASHLINE_TOKEN; without either, a random token is made at start and printed with the client
configuration. --no-token serves without one (every local user may then write), on loopback only.
Without --root the working directory is the root, except /, the home directory or a folder
holding it, which are refused.

${ENGINE}
`,
  read: `Usage: hashline read PATH [--lines A-B | --symbol NAME [--full]] [--root DIR] [--json]

Prints the file as numbered lines under its ¶path#TAG header, as fs_read shows it. On a terminal,
control characters (escape sequences, bidi overrides) are shown escaped; piped, the bytes pass as they are.
  --lines A-B     1-based, inclusive ("10-20", or "2-5,40-60")
  --symbol NAME   the definition so named (PATH may be a folder: its files are searched)
  --full          with --symbol: the definition whole (else one over 24 lines is shown with its middle elided)
  --json          the fs_read result as JSON
Exit status: 0 read, 1 refused (not found, outside the root, ...), 2 usage.
`,
  edit: `Usage: hashline edit PATH --tag TAG (--ops FILE | -) [--root DIR] [--json]

Applies fs_edit operations (read from FILE, or stdin with -) to PATH, checked against TAG, the
4-hex tag of the text they were written against (from \`hashline read\` or \`hashline hash\`).
A tag that is no longer current is merged when the history holds that version and the edited lines
did not change; otherwise the edit is refused and nothing is written.
  --json          the fs_edit result as JSON
Exit status: 0 applied, 1 refused, 2 usage.

Example:  printf 'replace 3:\\n+  return 2;\\n' | hashline edit src/a.ts --tag 1A2B --ops -
`,
  hash: `Usage: hashline hash PATH... [--root DIR] [--json]

Prints the SHA-256 (of the bytes) and the 4-hex tag (of the text, as in ¶path#TAG) of each file.
Exit status: 0 all hashed, 1 some file refused, 2 usage.
`,
  rollback: `Usage: hashline rollback PATH [--to TAG] [--root DIR] [--json]

Restores a version of PATH from the history hashline keeps of the files it read, wrote and edited
(the last 10 versions of the 50 most recent files, kept across runs under the user's state
directory). Without --to, the version before the current one.
Exit status: 0 restored, 1 refused, 2 usage.
`,
  history: `Usage: hashline history [PATH] [--json] [--limit N] [--show ID] [engine flags]
       hashline history --stores [--json]
       hashline history --prune [--stores] [--older-than AGE] [--max-bytes SIZE] [--root DIR]
       hashline history --forget [PROJECT]

Lists the versions of PATH in the durable history, newest first (without PATH: the root's recent
changes), with the tool and client that made each. --show ID prints one version's content; a file
the read policy refuses is listed without content.
  --limit N       at most N entries (default 50)
  --json          the entries as JSON
  --stores        every project's store under the state directory: project, file, size,
                  versions, newest change
  --prune         removes entries older than AGE (30d, 12h, 2w) and the oldest until the
                  stored content fits SIZE (500M, 2G): the root's store, or every store with --stores
  --forget        removes the store of PROJECT (default: the root), after listing its files

${ENGINE}
Exit status: 0 listed, 1 refused, 2 usage.
`,
  lang: `Usage: hashline lang list | add NAME... | remove NAME...

Grammars give symbols, outlines, references and structural rewrites their languages. TypeScript,
JavaScript, TSX, HTML and CSS are built in; Python, Go, JSON, YAML, TOML and Markdown are
installed with hashline. \`add\` installs others (rust, bash, swift, java, ...) with npm into
$HASHLINE_GRAMMAR_DIR, else $XDG_DATA_HOME/hashline/grammars, else ~/.local/share/hashline/grammars,
where every hashline of this user finds them (global, npx or project installs). A running server
sees a grammar added after it started once it is restarted.
`,
  config: `Usage: hashline config CLIENT [--root DIR] [--host H --port N] [--no-token]

Prints the MCP client configuration that starts this copy of hashline, for CLIENT:
  claude-desktop   claude_desktop_config.json (root: --root, else the working directory)
  claude-code      the \`claude mcp add\` command line (root: --root, else .)
  cursor, vscode   .cursor/mcp.json, .vscode/mcp.json (root: --root, else \${workspaceFolder})
  http             a client of a running \`hashline serve\` (--host, --port; the Bearer token it printed)
A clone, a global or a project install is named by absolute paths (node and bin/hashline.mjs);
a copy run from npx's cache, which npm may clear, is named by \`npx -y hashline\`, with a note.
`,
};

/** The help of a subcommand, or the overview. */
export function helpFor(command: string | undefined): string {
  return HELP[command ?? ''] ?? HELP['']!;
}

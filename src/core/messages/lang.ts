// Wire text about grammars: a grammar the registry knows but that is not installed here names the
// command that installs it (`hashline lang add NAME`, then a restart of the server).

/** The command that installs a grammar for the registry's id (`swift` → `hashline lang add swift`). */
export function grammarAddCommand(id: string): string {
  return `hashline lang add ${id}`;
}

export function grammarNotInstalled(id: string): string {
  return `the ${id} grammar is not installed here; install it with \`${grammarAddCommand(id)}\` and restart hashline`;
}

/** A file whose grammar is known but not installed, in the words of the read family's "no grammar" text. */
export function noGrammarInstalled(path: string, id: string): string {
  return `no tree-sitter grammar installed for \`${path}\` (${id}): install it with \`${grammarAddCommand(id)}\` and restart hashline, or use \`line\` targeting or read the whole file instead`;
}

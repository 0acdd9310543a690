// The tools' hints name the next MCP call (`fs_read` with line_range "A-B"); a person at the
// command line types commands and flags. Rewrites the hints of a refusal or notice, never file
// content, into the command line's words.

const RULES: ReadonlyArray<[RegExp, string]> = [
  [/`fs_read` with line_range "(\d+)-(\d+)"/g, '`hashline read PATH --lines $1-$2`'],
  [/line_range "(\d+)-(\d+)"/g, '--lines $1-$2'],
  [/\bline_range\b/g, '--lines'],
  [/Next call: /g, 'Next: '],
  [/`fs_read`/g, '`hashline read`'],
  [/`fs_edit`/g, '`hashline edit`'],
  [/`fs_rollback`/g, '`hashline rollback`'],
  [/`file_hash`/g, '`hashline hash`'],
];

export function cliWording(text: string): string {
  let out = text;
  for (const [re, to] of RULES) out = out.replace(re, to);
  return out;
}

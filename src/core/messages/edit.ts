// Wire text of fs_edit (spec/hashline.md, "Edit DSL" and "3-way merge recovery"). Parser
// diagnostics are prefixed with `line N: `, N being the 1-based line of the `ops` text.

/** `line N: ` prefix of a diagnostic that points at a line of the DSL text. */
export function atDslLine(dslLine: number, message: string): string {
  return `line ${dslLine}: ${message}`;
}

export const EMPTY_REPLACE = '`replace N..M:` needs at least one `+TEXT` body row. To delete lines, use `delete N..M`.';
export const EMPTY_INSERT = '`insert` needs at least one `+TEXT` body row.';
export const EMPTY_REPLACE_BLOCK = '`replace block N:` needs at least one `+TEXT` body row. To delete a block, use `delete block N`.';
export const DELETE_TAKES_NO_BODY = '`delete N..M` does not take body rows. Remove the body, or use `replace N..M:`.';
export const DELETE_BLOCK_TAKES_NO_BODY = '`delete block N` does not take body rows. Remove the body, or use `replace block N:`.';
export const MINUS_ROW = '`-` rows are not valid; the range already names the lines being changed. For a literal `-` line, write `+-…`.';
export const AUTO_PREFIXED = 'Auto-prefixed bare body row(s) with `+`. Body rows must be `+TEXT` literal lines.';

export function rangeEndsBeforeStart(start: number, end: number): string {
  return `range ${start}..${end} ends before it starts.`;
}

export function lineNumberNotPositive(raw: string): string {
  return `Line number must be >= 1, got 0 in "${raw}".`;
}

export function lineNumberTooLarge(raw: string): string {
  return `line anchor "${raw}" is not a safe integer; line numbers must be positive safe integers no greater than ${Number.MAX_SAFE_INTEGER}.`;
}

export function payloadWithoutHeader(text: string): string {
  return text.startsWith('+')
    ? `payload line has no preceding hunk header. Got "${text}".`
    : `payload line has no preceding hunk header. Use \`replace N..M:\`, \`delete N..M\`, or \`insert before|after|head|tail:\` above the body. Got "${text}".`;
}

export function applyPatchSentinel(text: string): string {
  return `apply_patch sentinel "${text}" is not valid in hashline. Use \`replace N..M:\`, \`delete N..M\`, or \`insert before|after|head|tail:\` ops.`;
}

export const UNIFIED_DIFF_HEADER =
  'unified-diff hunk header (`@@ -N,M +N,M @@`) is not valid in hashline. Use `replace N..M:`, `delete N..M`, or `insert before|after|head|tail:` ops.';

export function bracketedHunkHeader(text: string): string {
  return `\`@@\`-bracketed hunk header "${text}" is not valid in hashline. Drop the \`@@ ... @@\` brackets and write a verb header such as \`replace N..M:\`.`;
}

export function bareNumberHeader(n: string): string {
  return `hunk headers need a verb. Use \`replace ${n}..${n}:\` to replace, or \`delete ${n}\` to delete.`;
}

export function bareRangeHeader(a: string, b: string): string {
  return `bare range hunk header "${a}..${b}" is not valid. Hunk headers need a verb: write \`replace ${a}..${b}:\` or \`delete ${a}..${b}\`.`;
}

export function loneSurrogateRow(): string {
  return 'body row holds an unpaired UTF-16 surrogate; send text only.';
}

export function anchorConflict(anchorLine: number, firstDslLine: number): string {
  return `anchor line ${anchorLine} is already targeted by another hunk on line ${firstDslLine}. Issue ONE hunk per range; payload is only the final desired content, never a before/after pair.`;
}

export function boundaryConflict(which: 'head' | 'tail', firstDslLine: number): string {
  return `\`insert ${which}:\` is already targeted by another hunk on line ${firstDslLine}. Issue ONE hunk per range; payload is only the final desired content, never a before/after pair.`;
}

export function lineDoesNotExist(line: number, total: number): string {
  return `Line ${line} does not exist (file has ${total} lines)`;
}

export function blockUnresolved(op: 'replace' | 'delete', line: number): string {
  return op === 'replace'
    ? `\`replace block ${line}:\` could not resolve a syntactic block beginning on line ${line} (unsupported language, blank/closer line, or parse error). Use \`replace ${line}..M:\` with explicit lines.`
    : `\`delete block ${line}\` could not resolve a syntactic block beginning on line ${line} (unsupported language, blank/closer line, or parse error). Use \`delete ${line}..M\` with explicit lines.`;
}

export function nonUtf8Line(line: number): string {
  return `line ${line} of the file holds bytes that are not valid UTF-8 (shown as U+FFFD); an edit cannot replace or delete it without destroying those bytes. Leave that line out of the range (edit the lines around it), or fix the encoding with another tool.`;
}

export function missingTag(path: string): string {
  return `Missing hashline snapshot tag for edit to ${path}; use ¶${path}#tag from your latest read/search output. To create a new file, use the write tool.`;
}

export function malformedTag(path: string, given: string): string {
  return `Malformed hashline snapshot tag ${JSON.stringify(given)} for edit to ${path}: a tag is 4 hexadecimal digits, the TAG of ¶${path}#TAG in your latest read/search output (e.g. 1A2B).`;
}

export function fileNotFound(path: string): string {
  return `File not found: ${path}. Use the write tool to create new files.`;
}

export function noChanges(path: string): string {
  return `Edits to ${path} resulted in no changes being made.`;
}

export function editFailed(path: string, cause: string): string {
  return `edit failed for \`${path}\`: ${cause}`;
}

export function parseFailed(path: string, cause: string): string {
  return `failed to parse edit operations for \`${path}\`: ${cause}`;
}

export function writePermissionDenied(path: string): string {
  return `write permissions denied for \`${path}\``;
}

// ---- what a reply leaves out, what is not shown ----

export function diffLeftOut(path: string, firstChangedLine: number | undefined): string {
  const where = firstChangedLine === undefined ? '' : ` (the first change is at line ${firstChangedLine})`;
  return `the diff of \`${path}\` was left out to keep the reply within the message limit; the edit was applied. Read the file with \`fs_read\` and a \`line_range\` to see the change${where}.`;
}

/** What a compact edit reply says in place of the diff: the changed lines of the new file, lines added and removed. */
export function compactSpan(first: number, last: number, added: number, removed: number): string {
  const where = first === last ? `line ${first}` : `lines ${first}-${last}`;
  return `changed ${where} (+${added} -${removed})`;
}

export function readBlocked(path: string): string {
  return `\`${path}\` is blocked for reading, and an edit shows the lines it changes (its diff, and the current lines when the tag is stale); not edited. Replace the whole file with \`fs_write\` instead.`;
}

// ---- stale tags and recovery ----

export const HEAD_TAIL_ON_STALE =
  'Applied an `insert head:`/`insert tail:` edit onto the current file content even though the snapshot tag was stale (the file changed since your read); head/tail position is content-independent, so re-read if the drift was unexpected.';
export const RECOVERED_PREVIOUS_READ =
  'Recovered from a stale file hash using a previous read snapshot (file changed externally between read and edit).';
export const RECOVERED_EARLIER_SNAPSHOT =
  'Recovered from a stale file hash using an earlier in-session snapshot (the file hash advanced after a prior edit in this session).';
export const RECOVERED_BY_REPLAY =
  'Recovered by replaying your edits onto the current file content — your previous edit in this session changed line(s) you re-targeted with a stale hash. Verify the diff matches your intent before continuing.';

export function movedByText(moves: ReadonlyArray<{ from: number; to: number }>): string {
  const list = moves.slice(0, 5).map((m) => `${m.from} → ${m.to}`).join(', ');
  return `Re-anchored by text: the lines you read moved since your read (line as read → line now: ${list}${moves.length > 5 ? ', …' : ''}); the edit was applied where they are now, with the lines around them unchanged. Verify the diff.`;
}

export function whitespaceMerged(at: readonly number[], reindented: boolean): string {
  const where = at.slice(0, 5).join(', ') + (at.length > 5 ? ', …' : '');
  return reindented
    ? `Only whitespace changed around your edit since your read (the file was re-indented): the lines were found at line ${where} and your rows were re-indented the same way. Verify the diff.`
    : `Only whitespace changed around your edit since your read (trailing blanks): the lines were found at line ${where}; your rows went in as sent. Verify the diff.`;
}

export function tagNamesTwoVersions(tag: string): string {
  return `The tag #${tag} names the current text and also an earlier version of this file in this session (the tag is 16 bits; two texts can share it). The edit was applied to the current text; if your line numbers come from the earlier version, check the diff and roll back with \`fs_rollback\` if it is wrong.`;
}

/** One line of a refusal: what happened to the hunk on ops line N. */
export function hunkNotPlaced(dslLine: number, what: string): string {
  return `- the hunk on ops line ${dslLine}: ${what}.`;
}

export function moreHunksNotPlaced(n: number): string {
  return `- ${n} more hunk(s) could not be placed either.`;
}

export function nextCallRange(from: number, to: number): string {
  return `Next call: \`fs_read\` with line_range "${from}-${to}" (or the whole file) to see those lines as they are now, then \`fs_edit\` with the tag that read returns.`;
}

export const NEXT_CALL_WHOLE = 'Next call: `fs_read` of the whole file to see it as it is now, then `fs_edit` with the tag that read returns.';

export const WHAT_CHANGED = 'What changed since your read:';

export function unseenAnchors(lines: readonly number[]): string {
  const shown = lines.length > 20 ? [...lines.slice(0, 20).map(String), '…'] : lines.map(String);
  return `Edit anchors target lines ${shown.join(', ')} which were not surfaced by the preceding tool output; verify the diff against the current file.`;
}

/** How the server keeps its history, for the advice after an unknown tag. */
export type HistoryKind = 'durable' | 'memory' | 'off';

export function notFromSession(expected: string, actual: string, history?: HistoryKind): string {
  const advice: Record<HistoryKind, string> = {
    durable: `No read, write or edit of this file in any session of this project recorded #${expected} (a tag from another session or process works while the text it was read from is in the project's history). Call \`fs_read\` on the file and use the TAG of its ¶path#TAG header.`,
    memory: 'This server keeps its history in memory, so a tag read through another server process (a client that starts one per call) is unknown here: read and edit through the same server, or start it with `--history sqlite` (the default) so that every process of this project shares one history.',
    off: `This server keeps no history (\`--history off\`): an edit applies only with the current file's tag #${actual}.`,
  };
  return [
    `Edit rejected: hash #${expected} is not from this session.`,
    `The current file hashes to #${actual}. Re-read the file with \`fs_read\` to copy a current ¶path#tag header — never invent the tag and never reuse one from a prior session.`,
    ...(history === undefined ? [] : [advice[history]]),
  ].join('\n');
}

export function fileChanged(expected: string, actual: string): string {
  return [
    'Edit rejected: file changed between read and edit.',
    `Section is bound to #${expected}, but the current file hashes to #${actual}. If a prior edit in this session modified this file, copy the ¶path#newhash header from that edit's response; otherwise re-read the file with \`fs_read\` to refresh the tag before retrying.`,
  ].join('\n');
}

// ---- batches ----

/** The EditBatchError message: the cause, then each applied file's fresh header, then what was skipped. */
export function editBatchError(cause: string, appliedHeaders: readonly string[], skipped: readonly string[]): string {
  const out = [cause];
  if (appliedHeaders.length > 0) {
    out.push('', 'Applied before the failure (these files are changed; continue from their fresh tags without re-reading):');
    out.push(...appliedHeaders);
  } else {
    out.push('', 'No file was changed.');
  }
  if (skipped.length > 0) out.push('', `Skipped (not attempted): ${skipped.join(', ')}`);
  return out.join('\n');
}

export const NO_OPERATIONS =
  'no edit operations found. Write at least one hunk: `replace N..M:`, `delete N..M`, or `insert before|after|head|tail:`, with `+TEXT` body rows where needed.';

export function balanceRepaired(line: number, action: 'dropped' | 'kept'): string {
  const what =
    action === 'dropped'
      ? 'dropped 1 duplicated trailing payload line(s) already present below the range'
      : 'kept 1 structural closing line(s) the range deleted without restating';
  return `Auto-repaired a delimiter-balance mismatch in the replacement at line ${line}: ${what}. Issue the payload as the final desired content only — never restate or omit a closing bracket bordering the range.`;
}

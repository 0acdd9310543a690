// Wire text of writes (spec/hashline.md, "Write"), shared by fs_write, fs_edit and fs_ast_edit.

export function generatedRefusal(path: string, marker: string): string {
  return `refusing to modify \`${path}\`: its header marks it as auto-generated (\`${marker}\`). Generated files are owned by a tool — your change would be overwritten on the next generation run. Edit the generator instead, or remove the marker from the file to force the write.`;
}

export const AUTO_STRIPPED = 'auto-stripped hashline display prefixes from content before writing.';

export const MADE_EXECUTABLE = 'made executable via chmod +x (content starts with #! shebang).';

export function emptyText(path: string, afterStrip: boolean): string {
  return afterStrip
    ? `text is empty for \`${path}\`. Nothing was sent to add to the file after stripping hashline display prefixes.`
    : `text is empty for \`${path}\`. Nothing was sent to add to the file.`;
}

/** A write refused by the guard: the seed's text (with its allowlist hint) for a path outside the root; the reason alone otherwise. */
export function writeDenied(path: string, root: string, reason: string, outsideRoot = true): string {
  if (!outsideRoot) return `write permission denied for \`${path}\`: ${reason}. Nothing was written.`;
  return `write permission denied for \`${path}\`. Files under \`${root}\` are writable by default. Use the allowlist to grant access to paths outside this directory. (${reason})`;
}

/** hashline's own: fs_write's `file_hash` no longer names what is on disk. */
export function writeStale(path: string, sent: string, now: string | undefined): string {
  const found = now === undefined ? 'the file no longer exists' : `it is now #${now}`;
  return `refusing to overwrite \`${path}\`: it changed since the version you passed as file_hash (${sent}); ${found}. Nothing was written: re-read it with fs_read, then write again with its fresh tag.`;
}

export function writeFailed(path: string, err: string): string {
  return `failed to write \`${path}\`: ${err}`;
}

/** hashline's own: text sent by a client holds a lone UTF-16 surrogate. */
export function loneSurrogate(path: string): string {
  return `text for \`${path}\` holds a lone UTF-16 surrogate (not a character); send valid Unicode text`;
}

/** A hash mismatch on a file the read policy refuses: its hash is not shown (file_hash refuses it too). */
export function staleHidden(path: string): string {
  return `expectedSha256 does not match \`${path}\` (a read-blocked file: its hash is not shown); nothing was changed`;
}

/**
 * A batch that failed and could not put every file back: what failed, which files to inspect, and
 * where the previous bytes of each still are (backups left beside them for the user to act on).
 */
export function rollbackIncomplete(cause: string, affected: readonly string[], kept: ReadonlyArray<{ path: string; backup: string }>): string {
  const backups = kept.map((k) => `; the previous content of \`${k.path}\` is kept in \`${k.backup}\` (restore or remove it)`).join('');
  return `${cause}; rolling back failed for: ${affected.join(', ')}${backups}. Inspect these files and hash them again before retrying`;
}

/** file_delete: files that could import a target were not scanned (the read policy refuses them; never named). */
export function unscannedRefusal(targets: ReadonlyArray<{ path: string; readBlocked: number }>): string {
  const parts = targets.map((t) => `\`${t.path}\`: ${t.readBlocked} read-blocked file${t.readBlocked === 1 ? '' : 's'} that could import it`);
  return `the reference scan could not read every file that may import what is deleted (${parts.join('; ')}), so it proves nothing. Check those files yourself, then pass forceReferences: true for a reviewed override`;
}

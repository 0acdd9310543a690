// Wire text of the HTTP file API (spec/http.md): every refusal the daemon and its client say.

export const START_LINE_ZERO =
  'start_line is 1-based, so 0 is not a line. Line 1 is the first line; a caller working from 0-based offsets wants start_line=1.';

export function endBeforeStart(end: bigint | number, start: bigint | number): string {
  return `end_line ${end} is before start_line ${start}. Both bounds are 1-based and inclusive, so end_line must be at least start_line. An end_line past the last line is fine and reads through EOF — this refusal is for an inverted range, which no file can satisfy.`;
}

export const BOUNDS_NOT_INTEGERS = 'start_line and end_line must be integers';
export const PATH_REQUIRED = 'path query parameter is required';
export const NO_SUCH_FILE = 'no such file';
export const CANNOT_READ_FILE = 'cannot read file';
export const PATH_IS_DIRECTORY = 'path is a directory; use /v1/fs/tar';
export const PATH_NOT_REGULAR = 'path is not a regular file';

export function invalidMode(raw: string): string {
  return `mode ${raw} is not a valid octal file mode`;
}

export function specialModeBits(raw: string): string {
  return `mode ${raw} sets setuid, setgid or sticky bits, which are refused`;
}

/**
 * The 507 refusal. With `incoming` bytes still to come (a declared body, the rest of an archive),
 * free space may be above the reserve now and below it once they land: the text says so.
 */
export function diskReserve(path: string, avail: number, reserve: number, incoming = 0): string {
  const head = `refusing to write ${path}: ${avail} bytes available on the target filesystem`;
  if (incoming <= 0 || avail < reserve) return `${head}, below the ${reserve} byte reserve`;
  return `${head}, and the ${incoming} bytes still to come would leave less than the ${reserve} byte reserve`;
}

/** The 507 for a write the file system refused as full (ENOSPC, EDQUOT) while free space was above the reserve (out of inodes, a quota). */
export function diskFull(path: string, avail: number, reserve: number): string {
  return `refusing to write ${path}: the target filesystem refused the write as full (out of space, inodes or quota) with ${avail} bytes available and a ${reserve} byte reserve`;
}

export function bodyStalled(ms: number): string {
  return `request body stalled: no bytes arrived for ${ms} ms`;
}

export function bodyTooSlow(ms: number): string {
  return `request body did not arrive within ${ms} ms`;
}

export const CANNOT_CREATE_PARENT = 'cannot create parent';
export const CANNOT_SET_MODE = 'cannot set mode';
export const CANNOT_WRITE_FILE = 'cannot write file';

export function bodyTooLarge(limit: number): string {
  return `request body exceeds ${limit} bytes`;
}

export const PATH_NOT_DIRECTORY = 'path is not a directory; use /v1/fs/file';
export const NO_SUCH_DIRECTORY = 'no such directory';

export function treeTooManyMembers(root: string, n: number): string {
  return `tree under ${root} has more than ${n} members`;
}

export function treeTooManyBytes(root: string, n: number): string {
  return `tree under ${root} exceeds ${n} bytes`;
}

export const EXTRACTION_PATH_ABSOLUTE = 'path must be absolute for extraction';
export const MALFORMED_BODY = 'malformed or truncated body';

export function memberEscapes(member: string): string {
  return `refused tar member ${member}: path escapes the extraction root`;
}

export function memberDotNotDirectory(member: string): string {
  return `refused tar member ${member}: the . member must be a directory`;
}

export function absoluteLinkTarget(member: string, target: string): string {
  return `refused tar member ${member}: absolute link target ${target}`;
}

export function linkTargetOutside(member: string, target: string): string {
  return `refused tar member ${member}: link target ${target} resolves outside the root`;
}

export function linkTargetUnreadable(member: string, target: string): string {
  return `refused tar member ${member}: hard link target ${target} is blocked for reading, and the link would give its content a readable name`;
}

export function linkClimbsBack(member: string, target: string): string {
  return `refused tar member ${member}: link target ${target} climbs out of a component it entered (.. after a name), which a link there could redirect outside the root; give the target with every .. first`;
}

export function deviceMember(member: string): string {
  return `refused tar member ${member}: device and fifo members are not extractable`;
}

export function memberThroughLink(member: string, component: string): string {
  return `refused tar member ${member}: ${component} is a symbolic link, and extraction never writes through one`;
}

export function memberUnsupported(member: string, type: string): string {
  return `refused tar member ${member}: ${type} members are not extractable`;
}

export function archiveTooManyMembers(n: number): string {
  return `archive has more than ${n} members`;
}

export function archiveTooManyBytes(n: number): string {
  return `archive exceeds ${n} uncompressed bytes`;
}

export const TAR_FAILED = 'tar operation failed';
export const UNAUTHORIZED = 'missing or wrong bearer token';
export const FOREIGN_ORIGIN = 'forbidden: the Origin header names a host this server does not serve';
export const FOREIGN_HOST = 'forbidden: the Host header names a host this server does not serve';

/** The 429 of an `initialize` on /mcp when every session slot is held by a session in use. */
export function mcpSessionsFull(max: number, idleMs: number): string {
  return `too many MCP sessions: all ${max} are in use (a session is closed for a new one only after ${Math.round(idleMs / 60_000)} minutes idle). Close a session you no longer need (DELETE /mcp with its mcp-session-id) or retry later.`;
}

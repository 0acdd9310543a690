// Wire text of the path guard (spec/hashline.md, "PathGuard").

export function permissionDenied(path: string, reason: string): string {
  return `permission denied: \`${path}\` — ${reason}`;
}

export function outsideProject(path: string): string {
  return `permission denied: \`${path}\` is outside the project directory`;
}

/** The link's target is not named: it lies outside the permitted scope, and refusals never show such paths. */
export function symlinkEscape(path: string): string {
  return `permission denied: \`${path}\` is a symbolic link (or lies under one) that leads outside the permitted scope`;
}

/** The refusal reason for a path naming one of hashline's lock files (core/lock-names.ts). */
export const LOCK_FILE_REASON = 'the path names a hashline lock file, which tools never read, write or list';

/** The refusal reason for a path naming one of hashline's temporary or backup files (core/own-names.ts). */
export const STAGING_FILE_REASON = 'the path names a hashline staging file, which tools never read, write or list';
/** The refusal reason for a path in hashline's state directory (the durable history of every root). */
export const STATE_DIR_REASON = "the path is in hashline's state directory (the history), which tools never read, write or list";

/** The refusal reason for a write inside a version-control folder (core/config/path-policy.ts). */
export const VCS_DIR_REASON = 'the path is inside a version-control folder (.git, .hg, .svn), which tools only read unless the configuration sets `[files] write_vcs_dirs = true`';

export function tooManyLinks(path: string): string {
  return `permission denied: \`${path}\` goes through too many levels of symbolic links`;
}

/** An operating-system error met while resolving a path (`errno`: code and description, no path). */
export function cannotResolve(path: string, errno: string): string {
  return `cannot resolve \`${path}\`: ${errno}`;
}

/** The boundary tools change a file by its own path, never through a symbolic link (`target`: where it points, as the guard shows it). */
export function linkRefused(path: string, target: string): string {
  return `\`${path}\` is a symbolic link to \`${target}\`: the boundary tools change files by their own path, never through a link; name \`${target}\` instead`;
}

export function linkSwapped(path: string): string {
  return `permission denied: \`${path}\` changed between the check and the open (a link was swapped in); nothing was read or written`;
}

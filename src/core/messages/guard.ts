// Wire text of the path guard (spec/hashline.md, "PathGuard").

export function permissionDenied(path: string, reason: string): string {
  return `permission denied: \`${path}\` — ${reason}`;
}

export function outsideProject(path: string): string {
  return `permission denied: \`${path}\` is outside the project directory`;
}

export function symlinkEscape(path: string, target: string): string {
  return `permission denied: \`${path}\` is a symbolic link (or lies under one) that leads outside the permitted scope, to \`${target}\``;
}

export function linkSwapped(path: string): string {
  return `permission denied: \`${path}\` changed between the check and the open (a link was swapped in); nothing was read or written`;
}

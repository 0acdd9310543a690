// Which Node.js versions hashline runs on, and the line an older one gets instead of a start.

/** The oldest Node.js major version hashline runs on. */
export const NODE_MAJOR_MIN = 22;
/** How the help and the refusal name the supported versions. */
export const NODE_SUPPORTED = 'Node.js 22 or later (tested on 22 and 24)';

/** The refusal for a Node.js version (as in process.versions.node) older than supported, else undefined. */
export function nodeTooOld(version: string): string | undefined {
  const major = Number.parseInt(version.replace(/^v/, ''), 10);
  if (major >= NODE_MAJOR_MIN) return undefined;
  return `hashline needs ${NODE_SUPPORTED}; this is Node.js v${version.replace(/^v/, '')}`;
}

// Wire text of the web console (`hashline serve` at /): its refusals and notices, so the pages, the
// JSON endpoints and the tests say the same words.

export const LOGIN_REQUIRED = 'log in to the console first (the session is missing or expired)';
export const WRONG_TOKEN = 'wrong token';
export const CSRF_REFUSED = 'refused: the request does not carry this session\'s CSRF token';
export const CROSS_ORIGIN_REFUSED = 'refused: a state-changing console request must come from the console\'s own origin';
export const LOGGED_OUT = 'logged out';
export const JSON_BODY_REQUIRED = 'the body must be a JSON object (content-type: application/json)';

export function tooManyAttempts(seconds: number): string {
  return `too many failed logins from this address; try again in ${seconds} s`;
}

/** The console's plain statement when the history has no query API (memory or off). */
export function historyUnavailable(backend: string, warning?: string): string {
  const why = warning ?? (backend === 'off' ? 'the history is off (--history off)' : 'the history is kept in memory (--history memory)');
  return `the console shows the durable history, and there is none to show: ${why}. Start the server with the default SQLite store (or --history postgres://...) to see activity, timelines and rollbacks here.`;
}

export function noStoredContent(id: number): string {
  return `version ${id} has no stored content (a deletion or rename marker, content removed by retention, or an unknown id)`;
}

export function contentRefused(display: string): string {
  return `\`${display}\` is refused by the read policy: its versions are listed without content`;
}

export function binaryNotRestorable(display: string): string {
  return `version of \`${display}\` is binary (or larger than a text version): the console restores text versions only; use the file API or a tool to restore it`;
}

export function notThisRoot(id: number): string {
  return `version ${id} belongs to another root`;
}

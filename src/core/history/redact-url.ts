// Credentials in a store URL never leave the process: the one redaction of every text that names
// the history store (the start's warning, the store's status and failures, on stderr, in the MCP
// instructions, file_capabilities, the console and the CLI). Masked: the password of `user:pass@`,
// and the value of every query parameter whose name speaks of a credential (`password`,
// `sslpassword`, `passfile`, `sslkey`, any `*token*`, `*secret*`, `*auth*`, `*cred*`...), in any case
// and however percent-encoded.

const MASK = '***';
const SECRET_PARAM = /pass|pwd|secret|token|key|cred|auth/i;
/** A URL inside a longer text (an error message that echoes its connection string). */
const URL_IN_TEXT = /\b[a-z][a-z0-9+.-]*:\/\/[^\s'"`<>]+/gi;

/** The credential values of `url` as they may appear in a text (raw and decoded), longest first. */
function secretsOf(url: string): string[] {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return [];
  }
  const out = new Set<string>();
  const add = (v: string) => {
    if (v === '') return;
    out.add(v);
    try {
      out.add(decodeURIComponent(v));
    } catch {
      // not percent-encoded text: the raw form is enough
    }
  };
  add(u.password);
  for (const [k, v] of u.searchParams) if (SECRET_PARAM.test(k)) add(v);
  // the raw query too: `?password=a%26b` is `a&b` decoded and `a%26b` as written
  for (const part of u.search.slice(1).split('&')) {
    const eq = part.indexOf('=');
    if (eq > 0 && SECRET_PARAM.test(safeDecode(part.slice(0, eq)))) add(part.slice(eq + 1));
  }
  return [...out].sort((a, b) => b.length - a.length);
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return s;
  }
}

/** `url` with its credentials masked; a text that is not a URL is not shown at all. */
export function redactUrl(url: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return '(unparsable URL)';
  }
  if (u.password !== '') u.password = MASK;
  if (u.search !== '') {
    const kept = [...u.searchParams].map(([k, v]) => [k, SECRET_PARAM.test(k) ? MASK : v] as [string, string]);
    u.search = new URLSearchParams(kept).toString();
  }
  return u.toString();
}

/**
 * `text` (a message about the store at `url`) with every URL in it redacted, and every credential
 * value of `url` masked wherever it appears (an error that quotes a parameter alone).
 */
export function redactText(text: string, url?: string): string {
  let out = text.replace(URL_IN_TEXT, (m) => redactUrl(m));
  // (a value of one or two characters is left: masking it everywhere would garble the text)
  if (url !== undefined) for (const s of secretsOf(url)) if (s.length >= 3) out = out.split(s).join(MASK);
  return out;
}

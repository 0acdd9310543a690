// Reading the Cookie header and writing the console's Set-Cookie: the session cookie is HttpOnly
// (no script reads it), SameSite=Strict (no other site's page sends it), Path=/; its name carries
// the port, so two daemons on one host (cookies ignore ports) do not overwrite each other's.

/** The value of cookie `name` in a Cookie header, or undefined. */
export function readCookie(header: string | undefined, name: string): string | undefined {
  if (header === undefined) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() !== name) continue;
    const value = part.slice(eq + 1).trim();
    return value.startsWith('"') && value.endsWith('"') && value.length >= 2 ? value.slice(1, -1) : value;
  }
  return undefined;
}

export interface CookieOptions {
  /** Seconds until the browser drops it; 0 removes it now. */
  maxAge: number;
  /** Only over HTTPS (set when the daemon is reached through a TLS proxy that says so). */
  secure?: boolean;
}

/** A Set-Cookie value for the session cookie. The value must be a cookie-safe token (base64url). */
export function sessionCookie(name: string, value: string, options: CookieOptions): string {
  if (!/^[A-Za-z0-9_-]*$/.test(value) || !/^[A-Za-z0-9_-]+$/.test(name)) throw new Error('cookie name or value is not a token');
  const parts = [`${name}=${value}`, 'Path=/', 'HttpOnly', 'SameSite=Strict', `Max-Age=${Math.max(0, Math.floor(options.maxAge))}`];
  if (options.secure) parts.push('Secure');
  return parts.join('; ');
}

/** The session cookie's name for a daemon listening on `port`. */
export function cookieName(port: number | undefined): string {
  return port === undefined ? 'hashline_console' : `hashline_console_${port}`;
}

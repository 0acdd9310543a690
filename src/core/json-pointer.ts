// RFC 6901 JSON Pointers: parsing (with the `~0`/`~1` escapes) and evaluation over a plain value.
// `""` is the whole document; array tokens are canonical indexes (`0`, `12`, never `01`); `-`
// names the element after the last one, which never exists for a read.

import { HashlineError } from './errors/errors.js';

/** The tokens of a pointer. Throws `invalid_document_selector`. */
export function parsePointer(pointer: string): string[] {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) {
    throw new HashlineError('invalid_document_selector', `Invalid RFC 6901 selector: ${JSON.stringify(pointer)} must be empty or start with "/"`, {
      details: { selector: pointer },
    });
  }
  return pointer
    .slice(1)
    .split('/')
    .map((token) => {
      if (/~(?![01])/.test(token)) {
        throw new HashlineError('invalid_document_selector', `Invalid RFC 6901 selector: ${JSON.stringify(pointer)} has a "~" not followed by 0 or 1`, {
          details: { selector: pointer },
        });
      }
      return token.replace(/~1/g, '/').replace(/~0/g, '~');
    });
}

/** The array index a token names, or null (`-`, a leading zero, not a number). */
export function arrayIndex(token: string): number | null {
  return /^(0|[1-9][0-9]*)$/.test(token) ? Number(token) : null;
}

export type PointerResult = { found: true; value: unknown } | { found: false; missing: string };

/** Evaluates pointer tokens over a plain value (objects by own key, arrays by index). */
export function evaluatePointer(doc: unknown, tokens: readonly string[]): PointerResult {
  let value = doc;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    const at = `/${tokens.slice(0, i + 1).map((t) => t.replace(/~/g, '~0').replace(/\//g, '~1')).join('/')}`;
    if (Array.isArray(value)) {
      const index = arrayIndex(token);
      if (index === null || index >= value.length) return { found: false, missing: at };
      value = value[index];
    } else if (value !== null && typeof value === 'object' && !(value instanceof Date) && Object.prototype.hasOwnProperty.call(value, token)) {
      value = (value as Record<string, unknown>)[token];
    } else {
      return { found: false, missing: at };
    }
  }
  return { found: true, value };
}

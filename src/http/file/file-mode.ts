// The `mode` query parameter of PUT /v1/fs/file: octal, as `644`, `0644` or `0o644`, at most 0o7777,
// without the setuid, setgid or sticky bits (refused with a 400 of their own, as tar extraction masks them).

import { HashlineError } from '../../core/errors/errors.js';
import { invalidMode, specialModeBits } from '../../core/messages/http.js';

/** The mode as a number, undefined when absent; a coded 400 error when it is not valid octal or sets a special bit. */
export function parseFileMode(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const m = /^(?:0o)?([0-7]{1,12})$/i.exec(raw);
  const value = m ? parseInt(m[1]!, 8) : NaN;
  if (!Number.isInteger(value) || value > 0o7777) {
    throw new HashlineError('invalid_arguments', invalidMode(raw), { details: { mode: raw } });
  }
  if ((value & 0o7000) !== 0) throw new HashlineError('invalid_arguments', specialModeBits(raw), { details: { mode: raw } });
  return value;
}

// Shapes shared by the boundary tools' schemas: a per-file error (reads report them per file and
// go on), SHA-256 strings, and the chattr object.

import { z } from 'zod';

/** A per-file error of a read batch: the envelope's error shape. */
export const FileError = z.object({
  code: z.string(),
  message: z.string(),
  retryable: z.boolean(),
  details: z.record(z.string(), z.unknown()).optional(),
  suggestedNextCall: z.string().optional(),
});

export const Sha256 = z
  .string()
  .regex(/^[0-9a-fA-F]{64}$/, 'expectedSha256 must be 64 hex digits (the sha256 file_hash returns)')
  .describe('the SHA-256 (64 hex digits) of the file as you last saw it, from file_hash or file_read');

/** chmod 0..0o777 (no setuid, setgid or sticky bits); chown to uid/gid. */
export const Chattr = z.strictObject({
  chmod: z.number().int().min(0).max(0o777).optional().describe('permission bits, e.g. 420 (0o644) or 493 (0o755)'),
  chown: z.strictObject({ uid: z.number().int().nonnegative(), gid: z.number().int().nonnegative() }).optional(),
});

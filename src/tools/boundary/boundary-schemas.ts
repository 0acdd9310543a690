// Shapes shared by the boundary tools' schemas: a per-file error (reads report them per file and
// go on), SHA-256 strings, and the chattr object.

import * as z from 'zod';

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
  .meta({ guide: 'the SHA-256 (64 hex digits) of the file as you last saw it, from file_hash or file_read' });

/** The params marker of a schema issue the MCP adapter reports with the code it names. */
export const CODED_ISSUE = 'hashline';

/**
 * chmod 0..0o777; chown to uid/gid. A mode with setuid, setgid or sticky bits is `chattr_refused`
 * (the bits are understood and refused); anything else out of range is `invalid_arguments`.
 */
export const Chattr = z.strictObject({
  chmod: z
    .number()
    .int()
    .min(0)
    .max(0o7777)
    .superRefine((mode, ctx) => {
      if (Number.isInteger(mode) && mode >= 0 && mode <= 0o7777 && (mode & 0o7000) !== 0) {
        ctx.addIssue({
          code: 'custom',
          message: `chmod ${mode} (0o${mode.toString(8)}) sets setuid, setgid or sticky bits, which are refused: permission bits 0..0o777 only`,
          params: { [CODED_ISSUE]: 'chattr_refused' },
        });
      }
    })
    .meta({ maximum: 0o777 })
    .optional()
    .meta({ guide: 'permission bits 0..0o777, e.g. 420 (0o644) or 493 (0o755); setuid, setgid and sticky are refused' }),
  chown: z.strictObject({ uid: z.number().int().nonnegative(), gid: z.number().int().nonnegative() }).optional(),
});

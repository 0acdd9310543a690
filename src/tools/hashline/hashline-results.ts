// The result shapes of the hashline family (seed 000), as zod schemas shared by the tools that
// return them. Field names are the seed's snake_case.

import * as z from 'zod';

export const ReadResultSchema = z.object({
  path: z.string(),
  file_hash: z.string(),
  /** The SHA-256 of the same bytes (the file_* tools' expectedSha256), when the file still holds them. */
  sha256: z.string().optional(),
  header: z.string(),
  content: z.string(),
  warnings: z.string().optional(),
});
export type ReadResult = z.infer<typeof ReadResultSchema>;

export const WriteResultSchema = z.object({
  path: z.string(),
  file_hash: z.string(),
  /** The SHA-256 of the same bytes (the file_* tools' expectedSha256), when the file still holds them. */
  sha256: z.string().optional(),
  header: z.string(),
  warnings: z.string().optional(),
});
export type WriteResult = z.infer<typeof WriteResultSchema>;

export const EditResultSchema = z.object({
  path: z.string(),
  file_hash: z.string(),
  /** The SHA-256 of the same bytes (the file_* tools' expectedSha256), when the file still holds them. */
  sha256: z.string().optional(),
  header: z.string(),
  first_changed_line: z.number().int().optional(),
  warnings: z.array(z.string()),
  diff: z.string().optional(),
});
export type EditResult = z.infer<typeof EditResultSchema>;

export const RollbackResultSchema = z.object({
  path: z.string(),
  file_hash: z.string(),
  header: z.string(),
  replaced_hash: z.string(),
  warning: z.string().optional(),
});
export type RollbackResult = z.infer<typeof RollbackResultSchema>;

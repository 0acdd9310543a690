// Wire text of SQL candidate validation (seed 004, "Optional SQL candidate validation"): the notes
// and refusals of the selection, the worker's admission and deadline, and the policy verdicts.

export function describeTarget(dialect: string, version: string, variant: string | undefined): string {
  return `${dialect} ${version}${variant === undefined ? '' : ` (${variant})`}`;
}

export function unsupportedTarget(target: string): string {
  return `SQL validation supports PostgreSQL 18 core SQL only; ${target} is not validated`;
}

export function requiredUnsupported(target: string): string {
  return `${unsupportedTarget(target)}, so required validation cannot pass; select advisory or skip for this file, or select dialect postgresql version 18`;
}

export function sourceTooLarge(bytes: number, limit: number): string {
  return `the SQL source is ${bytes} bytes; validation accepts at most ${limit} bytes per source`;
}

export function queueFull(requests: number): string {
  return `SQL validation is busy (${requests} requests outstanding, the active one and up to ${requests - 1} waiting); retry shortly`;
}

export function outstandingBytes(bytes: number, limit: number): string {
  return `SQL validation is busy (${bytes} bytes outstanding, limit ${limit}); retry shortly`;
}

export function deadlineMissed(ms: number): string {
  return `SQL validation did not finish within its ${ms} ms deadline (queueing, start, parse and result); retry shortly`;
}

export function workerFailed(reason: string): string {
  return `the SQL validation worker failed: ${reason}; retry shortly`;
}

export const VALIDATOR_CLOSED = 'SQL validation is shut down';
export const VALIDATION_ABORTED = 'SQL validation was cancelled';
export const NUL_IN_SOURCE = 'the SQL text contains a NUL character';

export function validationFailed(label: string, first: { message: string; line: number; column: number } | undefined): string {
  const where = first === undefined ? '' : `: ${first.message} at line ${first.line}, column ${first.column}`;
  return `required SQL validation failed for ${label}${where}`;
}

export function validationUnavailable(label: string, reason: string): string {
  return `required SQL validation could not run for ${label}: ${reason}`;
}

export function advisoryUnavailable(reason: string): string {
  return `SQL validation did not run (advisory, not blocking): ${reason}`;
}

/** What the bundled adapter does not check, said wherever validation is described. */
export const SCOPE_NOTE = 'PostgreSQL 18 core SQL syntax only: bodies of DO blocks and functions (PL/pgSQL), extensions, catalog state and execution are not validated';

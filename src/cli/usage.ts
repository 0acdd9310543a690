// Usage errors: every subcommand reports them the same way, and `hashline` exits 2 on them.
// Kept apart from options.ts so the dispatcher loads nothing more than the error class.

import { HashlineError } from '../core/errors/errors.js';

/** A usage error: exit status 2, and a pointer to the subcommand's help. */
export function usageError(command: string, message: string): HashlineError {
  return new HashlineError('invalid_arguments', `${message} (see \`hashline ${command} --help\`)`, { details: { usage: true } });
}

export function isUsageError(e: unknown): boolean {
  return e instanceof HashlineError && (e.details as { usage?: boolean } | undefined)?.usage === true;
}

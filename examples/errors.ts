// The error codes: one table for every face (MCP tools of both families, HTTP, this library).
// Codes are the contract; messages are for people. Run: npx tsx examples/errors.ts
import { CODES, type ErrorCode, HashlineError, isHashlineError } from 'hashline';

function describe(e: unknown): string {
  if (!isHashlineError(e)) return 'not a hashline error';
  const info = CODES[e.code];
  return `${e.code}: ${info.meaning}${info.retryable ? ' (retry may succeed)' : ''}`;
}

const code: ErrorCode = 'edit_rejected';
console.log(describe(new HashlineError(code, 'Edit rejected: file changed between read and edit.')));

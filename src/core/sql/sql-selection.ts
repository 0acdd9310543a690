// Which SQL validation a patched file gets (seed 004, "Optional SQL candidate validation"): the
// per-file `sql` selection over the `[sql]` defaults, resolved to a plan (run the parser or not,
// under which policy, for which dialect), and the verdict of a policy over a validation result.
// Pure: the parser itself runs in io/sql/sql-worker.ts.
//
// The rules: no per-file selection and no required default means no parser call (a configured
// dialect or an advisory default alone does not ask for validation); a per-file `policy: "skip"`
// overrides a required default; the bundled adapter validates PostgreSQL 18 core SQL only (dialect
// `postgresql`, `postgres` or `pg`; version 18 or 18.x; no variant or `core`). Any other target is
// patchable under advisory (a note says it was not validated) or skip; under required it fails.

import * as z from 'zod';
import { HashlineError } from '../errors/errors.js';
import * as msg from '../messages/sql.js';

export const SQL_POLICIES = ['skip', 'advisory', 'required'] as const;
export type SqlPolicy = (typeof SQL_POLICIES)[number];

/** The per-file `sql` object of a patch. */
export interface SqlSelection {
  policy?: SqlPolicy;
  dialect?: string;
  version?: string;
  variant?: string;
}

/** The `[sql]` section of the configuration (Settings.sql). */
export interface SqlDefaults {
  policy: SqlPolicy | undefined;
  dialect: string | undefined;
  version: string | undefined;
  variant: string | undefined;
}

const targetName = z.string().min(1).max(64);
/** The strict schema of a per-file `sql` object (tool inputs use it as is). */
export const SqlSelectionSchema = z.strictObject({
  policy: z.enum(SQL_POLICIES).optional(),
  dialect: targetName.optional(),
  version: targetName.optional(),
  variant: targetName.optional(),
});

/** The one target the bundled adapter validates, in canonical spelling. */
export const SQL_DIALECT = 'postgresql';
export const SQL_VERSION = '18';
const DIALECT_ALIASES = new Set(['postgresql', 'postgres', 'pg']);
const VARIANTS = new Set(['core']);

export interface SqlTarget {
  dialect: string;
  version: string;
  variant?: string | undefined;
}

/** A target in canonical spelling (dialect aliases and 18.x folded) and whether the adapter validates it. */
export function normalizeSqlTarget(target: { dialect?: string | undefined; version?: string | undefined; variant?: string | undefined }): { dialect: string; version: string; variant: string | undefined; supported: boolean } {
  const rawDialect = (target.dialect ?? SQL_DIALECT).trim();
  const rawVersion = (target.version ?? SQL_VERSION).trim();
  const variant = target.variant?.trim().toLowerCase();
  const pg = DIALECT_ALIASES.has(rawDialect.toLowerCase());
  const v18 = /^18(\.\d+){0,2}$/.test(rawVersion);
  const dialect = pg ? SQL_DIALECT : rawDialect;
  const version = pg && v18 ? SQL_VERSION : rawVersion;
  return { dialect, version, variant, supported: pg && v18 && (variant === undefined || VARIANTS.has(variant)) };
}

/** What resolveSqlSelection decides for one file. */
export interface SqlPlan {
  /** Call the validator. */
  run: boolean;
  /** The policy in force: `skip` when nothing asks for validation. */
  policy: SqlPolicy;
  dialect: string;
  version: string;
  variant: string | undefined;
  /** Set when an advisory selection names a target the adapter does not validate (then `run` is false). */
  note?: string;
}

/**
 * The plan for one file. A per-file object, even `{}`, is a selection (advisory unless a policy is
 * given here or by default). Throws `sql_validation_unavailable` (not retryable) when required
 * validation names a target the adapter does not validate.
 */
export function resolveSqlSelection(perFile: SqlSelection | undefined, defaults: SqlDefaults): SqlPlan {
  const target = normalizeSqlTarget({
    dialect: perFile?.dialect ?? defaults.dialect,
    version: perFile?.version ?? defaults.version,
    variant: perFile?.variant ?? defaults.variant,
  });
  const { dialect, version, variant } = target;
  const requested = perFile !== undefined || defaults.policy === 'required';
  const policy: SqlPolicy = requested ? (perFile?.policy ?? defaults.policy ?? 'advisory') : 'skip';
  const plan: SqlPlan = { run: false, policy, dialect, version, variant };
  if (policy === 'skip') return plan;
  if (!target.supported) {
    const named = msg.describeTarget(dialect, version, variant);
    if (policy === 'required') {
      throw new HashlineError('sql_validation_unavailable', msg.requiredUnsupported(named), {
        retryable: false,
        details: { reason: 'unsupported', policy, dialect, version, ...(variant === undefined ? {} : { variant }) },
      });
    }
    return { ...plan, note: msg.unsupportedTarget(named) };
  }
  return { ...plan, run: true };
}

/** A parse problem, 1-based line and column (UTF-16 code units, as JavaScript strings count). */
export interface SqlDiagnostic {
  message: string;
  line: number;
  column: number;
}

export interface SqlResult {
  valid: boolean;
  diagnostics: SqlDiagnostic[];
}

export type SqlStatus = 'valid' | 'invalid' | 'unsupported' | 'unavailable' | 'skipped';

/** What a file's reply (and a preview receipt) carries about its SQL validation. */
export interface SqlOutcome {
  policy: SqlPolicy;
  dialect: string;
  version: string;
  variant?: string;
  status: SqlStatus;
  diagnostics: SqlDiagnostic[];
  note?: string;
}

/**
 * The verdict of the plan's policy over what the validator gave (a result, or the error it threw;
 * nothing when the plan did not run). Advisory never blocks: an invalid or unavailable result is
 * reported. Required allows only a valid result: otherwise `sql_validation_failed` (with the
 * diagnostics) or `sql_validation_unavailable` (keeping the cause's retryability and reason) is
 * thrown. A cancellation (`aborted`) is thrown as it is under every policy.
 */
export function sqlOutcome(plan: SqlPlan, got: SqlResult | HashlineError | undefined, label: string): SqlOutcome {
  const base = { policy: plan.policy, dialect: plan.dialect, version: plan.version, ...(plan.variant === undefined ? {} : { variant: plan.variant }) };
  const facts = { filePath: label, ...base };
  if (!plan.run || got === undefined) {
    return plan.note === undefined ? { ...base, status: 'skipped', diagnostics: [] } : { ...base, status: 'unsupported', diagnostics: [], note: plan.note };
  }
  if (got instanceof HashlineError) {
    if (got.code === 'aborted') throw got;
    if (plan.policy === 'required') {
      throw new HashlineError('sql_validation_unavailable', msg.validationUnavailable(label, got.message), {
        retryable: got.retryable,
        details: { ...facts, reason: got.details?.reason ?? got.code },
        cause: got,
      });
    }
    return { ...base, status: 'unavailable', diagnostics: [], note: msg.advisoryUnavailable(got.message) };
  }
  if (got.valid) return { ...base, status: 'valid', diagnostics: [] };
  if (plan.policy === 'required') {
    throw new HashlineError('sql_validation_failed', msg.validationFailed(label, got.diagnostics[0]), {
      details: { ...facts, diagnostics: got.diagnostics },
    });
  }
  return { ...base, status: 'invalid', diagnostics: got.diagnostics };
}

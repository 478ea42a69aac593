import { pino } from 'pino';

/**
 * Database errors carry what was sent with the query: drizzle's `DrizzleQueryError` puts the SQL and every parameter
 * in its message ("Failed query: ... params: thabo@example.co.za,..."), and PostgreSQL's own messages and details
 * quote values ('Key (email)=(thabo@example.co.za) already exists', 'invalid input syntax for type uuid: "..."').
 * Logged verbatim, they put people's data (and secrets) into the logs. What is logged of them instead: the error's
 * type, PostgreSQL's SQLSTATE code, the constraint/table/column/schema names, severity and routine, never the
 * message, detail, hint, where, the query's parameters, or a stack whose first line repeats the message.
 */

/** PostgreSQL's fields that name things in the schema, never values. */
const NAMING_FIELDS = ['code', 'constraint', 'table', 'column', 'schema', 'dataType', 'severity', 'routine'] as const;

interface SafeDbError {
  type: string;
  message: string;
  [field: string]: unknown;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

/** A driver error from PostgreSQL (pg's DatabaseError): an SQLSTATE code with a severity or a routine. */
export function isPostgresError(error: unknown): boolean {
  return (
    isObject(error) &&
    typeof error['code'] === 'string' &&
    /^[0-9A-Z]{5}$/.test(error['code']) &&
    (typeof error['severity'] === 'string' || typeof error['routine'] === 'string')
  );
}

/** drizzle's wrapper around a failed query, which quotes the query and its parameters in its message. */
export function isQueryError(error: unknown): boolean {
  return (
    error instanceof Error &&
    (error.name === 'DrizzleQueryError' || error.constructor?.name === 'DrizzleQueryError' || /^Failed query: /.test(error.message))
  );
}

/** The stack without its first line (which repeats the message), or nothing. */
const framesOf = (error: unknown): string | undefined =>
  error instanceof Error && typeof error.stack === 'string'
    ? error.stack
        .split('\n')
        .filter((l) => /^\s+at /.test(l))
        .join('\n')
    : undefined;

function safeDbError(error: Record<string, unknown>): SafeDbError {
  const out: SafeDbError = {
    type: error instanceof Error ? error.constructor?.name || error.name : 'DatabaseError',
    message: `database error${typeof error['code'] === 'string' ? ` ${error['code']}` : ''}${typeof error['constraint'] === 'string' ? ` on ${error['constraint']}` : ''} (message withheld: it may carry query parameters)`,
  };
  for (const field of NAMING_FIELDS) if (typeof error[field] === 'string') out[field] = error[field];
  const stack = framesOf(error);
  if (stack) out['stack'] = stack;
  return out;
}

/**
 * pino's error serializer, except for database errors, anywhere in the `cause` chain: those become what
 * `safeDbError` keeps. Other errors are serialized as pino always does.
 */
export function serializeError(error: unknown): unknown {
  if (!isObject(error)) return error;
  if (isPostgresError(error)) return safeDbError(error);
  if (isQueryError(error)) {
    const cause = (error as { cause?: unknown }).cause;
    return {
      type: 'DrizzleQueryError',
      message: 'Failed query (the query and its parameters withheld)',
      stack: framesOf(error),
      ...(cause !== undefined ? { cause: serializeError(cause) } : {}),
    };
  }
  if (!(error instanceof Error)) return error;
  const serialized = pino.stdSerializers.err(error) as unknown as Record<string, unknown>;
  // pino folds the causes' messages into the message and stack: redo both when a cause is a database error.
  const cause = (error as { cause?: unknown }).cause;
  if (cause !== undefined && hasDbError(cause)) {
    serialized['message'] = error.message;
    serialized['stack'] = error.stack;
    serialized['cause'] = serializeError(cause);
  }
  return serialized;
}

function hasDbError(error: unknown, depth = 0): boolean {
  if (depth > 10 || !isObject(error)) return false;
  return isPostgresError(error) || isQueryError(error) || hasDbError(error['cause'], depth + 1);
}

/**
 * For text that may quote a database error (Nest's own log lines pass messages and stacks as strings): the query's
 * parameters, keys' values and quoted input are cut out.
 */
export function scrubDatabaseText(text: string): string {
  return text
    .replace(/^Failed query: [\s\S]*?\nparams: .*$/m, 'Failed query (the query and its parameters withheld)')
    .replace(/\bparams: .*$/gm, 'params: [withheld]')
    .replace(/Key \((.*?)\)=\(.*?\)/g, 'Key ($1)=([withheld])')
    .replace(/(invalid input (?:syntax|value) for [^:]*:) ".*?"/g, '$1 [withheld]');
}

import { z } from 'zod';
import { nulFieldErrors } from './fields.js';

/** The body of every error the gateway answers with, and of every error a service replies with over NATS. */
export const ApiErrorSchema = z
  .object({
    statusCode: z.number().int(),
    code: z.string(),
    message: z.string(),
    fieldErrors: z.record(z.string(), z.array(z.string())).optional(),
  })
  .meta({ id: 'ApiError' });
export type ApiError = z.infer<typeof ApiErrorSchema>;

export const ErrorCode = {
  ValidationFailed: 'VALIDATION_FAILED',
  NotFound: 'NOT_FOUND',
  Unauthorized: 'UNAUTHORIZED',
  /** Sign-in: an unknown email and a wrong password get the same answer (decisions.md), so nobody learns who has an account. */
  InvalidCredentials: 'AUTH_INVALID_CREDENTIALS',
  /** A signed-in owner confirming an action with their password (deleting the account) typed the wrong one. */
  WrongPassword: 'AUTH_WRONG_PASSWORD',
  LoginFailed: 'AUTH_FAILED',
  /** Password sign-in of a rep whose team requires its company account (single sign-on). */
  SsoRequired: 'SSO_REQUIRED',
  LinkInvalid: 'LINK_INVALID',
  /** A verification or reset link opened while signed in to another account (409): nothing used, nobody switched. */
  LinkForOtherAccount: 'LINK_FOR_OTHER_ACCOUNT',
  Forbidden: 'FORBIDDEN',
  TooManyRequests: 'TOO_MANY_REQUESTS',
  ServiceUnavailable: 'SERVICE_UNAVAILABLE',
  /** The request is right but the state does not allow it now (an order already paid, a membership already held). */
  Conflict: 'CONFLICT',
  Internal: 'INTERNAL',
  /** An order cannot make that move from its state, or not by this caller (409; see OrderMoves). */
  OrderMoveNotAllowed: 'ORDER_MOVE_NOT_ALLOWED',
  /** An upload would take the account's stored images past its storage quota (413). */
  QuotaExceeded: 'QUOTA_EXCEEDED',
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

/** Field name -> messages, from a zod error; the form-level issues go under "_form". */
export function toFieldErrors(error: z.ZodError): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const issue of error.issues) {
    const key = issue.path.length > 0 ? issue.path.map(String).join('.') : '_form';
    (out[key] ??= []).push(issue.message);
  }
  return out;
}

export function validationError(error: z.ZodError): ApiError {
  return {
    statusCode: 400,
    code: ErrorCode.ValidationFailed,
    message: 'Please correct the highlighted fields.',
    fieldErrors: toFieldErrors(error),
  };
}

/**
 * A request body parsed with its schema, every text refused when it holds a NUL character (`nulFieldErrors`):
 * the one parse of every body the gateway accepts, so a NUL answers 400 with its field rather than reaching
 * PostgreSQL (which refuses it) as a 500.
 */
export function parseBody<T extends z.ZodType>(
  schema: T,
  body: unknown,
): { success: true; data: z.output<T> } | { success: false; error: ApiError } {
  const nul = nulFieldErrors(body);
  const parsed = schema.safeParse(body);
  if (parsed.success && Object.keys(nul).length === 0) return { success: true, data: parsed.data };
  const fieldErrors = parsed.success ? {} : toFieldErrors(parsed.error);
  for (const [field, messages] of Object.entries(nul)) fieldErrors[field] = messages;
  return {
    success: false,
    error: { statusCode: 400, code: ErrorCode.ValidationFailed, message: 'Please correct the highlighted fields.', fieldErrors },
  };
}

export function isApiError(value: unknown): value is ApiError {
  return ApiErrorSchema.safeParse(value).success;
}

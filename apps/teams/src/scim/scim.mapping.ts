import { randomBytes } from 'node:crypto';
import { ErrorCode, type ScimAuditEntry, type ScimRequestError, type ScimType, type ScimUserRecord, scimPhone } from '@digicard/contracts';
import { ServiceError } from '@digicard/server';
import type { MemberRow } from '../team/members.repository.js';
import type { ScimAuditRow } from './scim.repository.js';

const codes: Record<number, string> = {
  400: ErrorCode.ValidationFailed,
  401: ErrorCode.Unauthorized,
  403: ErrorCode.Forbidden,
  404: ErrorCode.NotFound,
  409: ErrorCode.Conflict,
};

/**
 * A SCIM refusal as the bus carries errors: the SCIM `scimType` travels as the field error `scimType` (the gateway
 * answers it in SCIM's error format).
 */
export function scimFailure(status: number, message: string, scimType?: ScimType): ServiceError {
  return new ServiceError({
    statusCode: status,
    code: codes[status] ?? ErrorCode.ValidationFailed,
    message,
    ...(scimType ? { fieldErrors: { scimType: [scimType] } } : {}),
  });
}

export const fromRequestError = (error: ScimRequestError): ServiceError => scimFailure(error.status, error.message, error.scimType);

/** What an audit entry says of a refusal: its scimType, else what its status means. */
export function outcomeOf(error: ServiceError): string {
  const scimType = error.body.fieldErrors?.['scimType']?.[0];
  if (scimType) return scimType;
  if (error.body.statusCode === 409) return 'uniqueness';
  if (error.body.statusCode === 400) return 'invalidValue';
  return (
    { 401: 'unauthorized', 403: 'forbidden', 404: 'notFound', 429: 'tooMany' }[error.body.statusCode] ??
    (error.body.statusCode >= 500 ? 'unavailable' : 'refused')
  );
}

export const toScimRecord = (row: MemberRow): ScimUserRecord => ({
  id: row.memberAccountId,
  userName: row.email.toLowerCase(),
  externalId: row.externalId,
  givenName: row.firstName,
  familyName: row.lastName,
  title: row.title,
  tel: scimPhone(row.tel),
  active: row.suspendedAt === null,
  created: row.addedAt.toISOString(),
  lastModified: row.updatedAt.toISOString(),
});

export const toAuditEntry = (row: ScimAuditRow): ScimAuditEntry => ({
  id: row.id,
  at: row.at.toISOString(),
  method: row.method,
  path: row.path,
  status: row.status,
  outcome: row.outcome,
  userId: row.memberAccountId,
  userName: row.userName,
});

/**
 * A DigiCard username for a provisioned rep, from the userName's local part (lowercase letters, digits and single
 * hyphens, 3 to 30 long); `attempt` > 0 adds a short random suffix when the plain one is taken.
 */
export function usernameFor(userName: string, attempt: number): string {
  const local = userName.slice(0, userName.lastIndexOf('@'));
  let base = local
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  if (base.length < 3) base = `rep-${base}`.replace(/-+$/, '');
  const suffix = attempt > 0 ? `-${randomBytes(3).toString('hex')}` : '';
  return `${base.slice(0, 30 - suffix.length).replace(/-+$/, '')}${suffix}`;
}

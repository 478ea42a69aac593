import { createHash, randomBytes } from 'node:crypto';
import type { Request } from 'express';
import { ErrorCode, SCIM_TOKEN_PREFIX, ScimMessages } from '@digicard/contracts';
import { ApiHttpException } from '@digicard/server';

/**
 * A team's SCIM token: made here, shown to the leader once, and otherwise only ever hashed. The teams service keeps
 * the SHA-256 (`hashScimToken`) and finds the team by it; the token itself is never logged, stored or sent on the bus.
 */
export const newScimToken = (): string => `${SCIM_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;

export const hashScimToken = (token: string): string => createHash('sha256').update(token, 'utf8').digest('base64url');

/** The key its rate limit counts under in Redis: another hash than the stored one, so Redis holds nothing teams keeps. */
export const scimRateKey = (token: string): string => createHash('sha256').update(`scim-rate:${token}`, 'utf8').digest('base64url');

/** The bearer token of `Authorization: Bearer <token>` (the scheme in any case), or null. */
export function scimTokenOf(req: Pick<Request, 'headers'>): string | null {
  const header = req.headers.authorization;
  if (typeof header !== 'string') return null;
  const match = /^bearer +([\x21-\x7e]{16,200})$/i.exec(header.trim());
  return match ? match[1]! : null;
}

export const scimTokenMissing = (): ApiHttpException =>
  new ApiHttpException({ statusCode: 401, code: ErrorCode.Unauthorized, message: ScimMessages.noToken });

/** Marks a SCIM request whose body was not JSON (or not of a JSON type): answered 400 invalidSyntax, and audited. */
export const SCIM_BODY_UNREADABLE = Symbol('scim body unreadable');

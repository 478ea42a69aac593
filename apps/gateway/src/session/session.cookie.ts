import type { Request, Response } from 'express';

/**
 * `__Host-` cookies must be Secure, Path=/ and have no Domain: the browser then never sends them to another
 * host or over plain HTTP. Browsers treat http://localhost and 127.0.0.1 as secure, so development works too.
 */
export const SESSION_COOKIE = '__Host-digicard_session';

/** A session id as `SessionStore.create` makes it: 32 random bytes, base64url (43 characters). */
const SESSION_ID = /^[A-Za-z0-9_-]{43}$/;

/**
 * The session id the cookie names (null when there is none or it is not one of ours) and whether the cookie was sent
 * at all. Anything else in the cookie (a browser extension's or a proxy's garbage, bad percent-encoding, an id of the
 * wrong shape) reads as signed out: the id is never decoded, since ours are base64url and need no encoding.
 */
export function sessionCookieState(req: Request): { id: string | null; sent: boolean } {
  const header = req.headers.cookie;
  if (!header) return { id: null, sent: false };
  let sent = false;
  for (const part of header.split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name !== SESSION_COOKIE) continue;
    sent = true;
    const id = value.join('=').trim();
    if (SESSION_ID.test(id)) return { id, sent };
  }
  return { id: null, sent };
}

export function writeSessionCookie(res: Response, id: string, maxAgeMs: number): void {
  res.cookie(SESSION_COOKIE, id, { httpOnly: true, secure: true, sameSite: 'lax', path: '/', maxAge: maxAgeMs });
}

export function clearSessionCookie(res: Response): void {
  res.clearCookie(SESSION_COOKIE, { httpOnly: true, secure: true, sameSite: 'lax', path: '/' });
}

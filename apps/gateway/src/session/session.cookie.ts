import type { Request, Response } from 'express';

/**
 * `__Host-` cookies must be Secure, Path=/ and have no Domain: the browser then never sends them to another
 * host or over plain HTTP. Browsers treat http://localhost and 127.0.0.1 as secure, so development works too.
 */
export const SESSION_COOKIE = '__Host-digicard_session';

export function readSessionCookie(req: Request): string | null {
  const header = req.headers.cookie;
  if (!header) return null;
  for (const part of header.split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === SESSION_COOKIE) return decodeURIComponent(value.join('='));
  }
  return null;
}

export function writeSessionCookie(res: Response, id: string, maxAgeMs: number): void {
  res.cookie(SESSION_COOKIE, id, { httpOnly: true, secure: true, sameSite: 'lax', path: '/', maxAge: maxAgeMs });
}

export function clearSessionCookie(res: Response): void {
  res.clearCookie(SESSION_COOKIE, { httpOnly: true, secure: true, sameSite: 'lax', path: '/' });
}

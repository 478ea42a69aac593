import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import { APPLE_PASS_AUTH_SCHEME, ErrorCode, WalletMessages } from '@digicard/contracts';
import { ApiHttpException } from '@digicard/server';

/** The pass's own token from `Authorization: ApplePass <token>`, or null (no header, another scheme, garbage). */
export function applePassTokenOf(req: Pick<Request, 'headers'>): string | null {
  const header = req.headers.authorization;
  if (typeof header !== 'string') return null;
  const match = /^(\S+) +([\x21-\x7e]{16,200})$/.exec(header.trim());
  return match && match[1] === APPLE_PASS_AUTH_SCHEME ? match[2]! : null;
}

export const passTokenMissing = (): ApiHttpException =>
  new ApiHttpException({ statusCode: 401, code: ErrorCode.Unauthorized, message: WalletMessages.passUnauthorized });

/** The pass token of a route with `access: 'pass'` (`@Route` already answered 401 without one). */
export const ApplePassToken = createParamDecorator((_: unknown, ctx: ExecutionContext): string => {
  const token = applePassTokenOf(ctx.switchToHttp().getRequest<Request>());
  if (!token) throw passTokenMissing();
  return token;
});

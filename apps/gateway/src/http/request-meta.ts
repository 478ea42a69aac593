import { randomUUID } from 'node:crypto';
import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import type { RequestMeta } from '@digicard/contracts';
import type { SessionRequest } from '../session/session.middleware.js';

export const REQUEST_ID_HEADER = 'x-request-id';

export function requestIdOf(req: Pick<Request, 'headers'>): string {
  const given = req.headers[REQUEST_ID_HEADER];
  return typeof given === 'string' && /^[\w-]{8,64}$/.test(given) ? given : randomUUID();
}

/** Who is asking, as the gateway's session says: never taken from the browser. */
export function requestMetaOf(req: SessionRequest): RequestMeta {
  return {
    requestId: req.requestId ?? requestIdOf(req),
    userId: req.session?.data.accountId ?? null,
    role: req.session?.data.role ?? null,
    ip: req.ip ?? null,
  };
}

/** The request's meta (request id, account, role, address) for the services. */
export const Meta = createParamDecorator((_: unknown, ctx: ExecutionContext): RequestMeta =>
  requestMetaOf(ctx.switchToHttp().getRequest<SessionRequest>()),
);

/** The current session, or null. */
export const CurrentSession = createParamDecorator(
  (_: unknown, ctx: ExecutionContext) => ctx.switchToHttp().getRequest<SessionRequest>().session ?? null,
);

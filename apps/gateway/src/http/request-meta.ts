import { randomUUID } from 'node:crypto';
import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import type { RequestMeta } from '@digicard/contracts';

export const REQUEST_ID_HEADER = 'x-request-id';

export function requestIdOf(req: Request): string {
  const given = req.headers[REQUEST_ID_HEADER];
  return typeof given === 'string' && /^[\w-]{8,64}$/.test(given) ? given : randomUUID();
}

/** Who is asking, as the gateway knows it. Sessions arrive with the accounts work; until then nobody is signed in. */
export const Meta = createParamDecorator((_: unknown, ctx: ExecutionContext): RequestMeta => {
  const req = ctx.switchToHttp().getRequest<Request & { requestId?: string }>();
  return { requestId: req.requestId ?? requestIdOf(req), userId: null, role: null, ip: req.ip ?? null };
});

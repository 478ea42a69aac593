import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { ErrorCode, type SessionUser } from '@digicard/contracts';
import { ApiHttpException } from '@digicard/server';
import type { SessionRequest } from '../session/session.middleware.js';
import { VALID_QUERY, type QueryRequest } from './route.guard.js';

const requestOf = (ctx: ExecutionContext) => ctx.switchToHttp().getRequest<SessionRequest & { user?: SessionUser }>();

/** The body as the route's schema parsed it: `@Route` validated it before the handler runs. */
export const ValidBody = createParamDecorator((_: unknown, ctx: ExecutionContext): unknown => requestOf(ctx).body);

/** The query string as the route's `query` schema parsed it: `@Route` validated it before the handler runs. */
export const ValidQuery = createParamDecorator((_: unknown, ctx: ExecutionContext): unknown => {
  const req = ctx.switchToHttp().getRequest<QueryRequest>();
  if (!(VALID_QUERY in req)) throw new Error('ValidQuery on a route without a query schema');
  return req[VALID_QUERY];
});

/** The signed-in account's id, on routes for accounts (`access` other than public). */
export const AccountId = createParamDecorator((_: unknown, ctx: ExecutionContext): string => {
  const session = requestOf(ctx).session;
  // `@Route` already answered 401; this keeps a route declared public by mistake from acting on nobody.
  if (!session) throw new ApiHttpException({ statusCode: 401, code: ErrorCode.Unauthorized, message: 'Please log in first.' });
  return session.data.accountId;
});

/** The account a sign-in strategy just authenticated (routes with `signIn`). */
export const SignedInUser = createParamDecorator((_: unknown, ctx: ExecutionContext): SessionUser => {
  const user = requestOf(ctx).user;
  if (!user) throw new Error('SignedInUser on a route without signIn');
  return user;
});

/** The raw bytes of an upload (routes with `upload`); empty when nothing was sent. */
export const UploadedBytes = createParamDecorator((_: unknown, ctx: ExecutionContext): Buffer => {
  const body: unknown = requestOf(ctx).body;
  return Buffer.isBuffer(body) ? body : Buffer.alloc(0);
});

import { Catch, HttpException, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import type { Response } from 'express';
import { ErrorCode, type ApiError } from '@digicard/contracts';
import type { Logger } from '@digicard/config';
import { ApiHttpException } from '@digicard/server';
import { RedisUnavailableError } from '../redis/redis-call.js';
import { RateLimitedException } from '../security/rate-limiter.js';
import { RETRY_AFTER_SECONDS, UNAVAILABLE } from './unavailable.js';

const messages: Record<number, [string, string]> = {
  400: [ErrorCode.ValidationFailed, 'The request could not be read. Please check what you sent.'],
  403: [ErrorCode.Forbidden, 'You are not allowed to do that.'],
  404: [ErrorCode.NotFound, 'Not found.'],
  413: [ErrorCode.ValidationFailed, 'What you sent is too large.'],
  415: [ErrorCode.ValidationFailed, 'Please send JSON.'],
  429: [ErrorCode.TooManyRequests, 'Too many requests. Please wait a few minutes and try again.'],
};

/** Every error leaves the gateway as an ApiError; only the unexpected is logged as an error and hidden. */
@Catch()
export class ApiExceptionFilter implements ExceptionFilter {
  constructor(private readonly logger: Logger) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const res = host.switchToHttp().getResponse<Response>();
    const req = host.switchToHttp().getRequest<{ requestId?: string; method: string; path: string }>();
    let body: ApiError;
    if (exception instanceof ApiHttpException) {
      body = exception.body;
      if (exception instanceof RateLimitedException) res.setHeader('Retry-After', String(exception.retryAfterSeconds));
    } else if (exception instanceof RedisUnavailableError) {
      // Sessions and limits live in Redis: while it is away, ask the client to come back rather than fail.
      this.logger.warn({ err: exception.cause, requestId: req.requestId, method: req.method, path: req.path }, 'redis unavailable');
      body = UNAVAILABLE;
      res.setHeader('Retry-After', String(RETRY_AFTER_SECONDS));
    } else if (exception instanceof HttpException) {
      const status = exception.getStatus();
      const [code, message] = messages[status] ?? [ErrorCode.Internal, exception.message];
      body = { statusCode: status, code, message };
      if (status >= 500) this.logger.error({ err: exception, requestId: req.requestId }, 'request failed');
    } else {
      this.logger.error({ err: exception, requestId: req.requestId, method: req.method, path: req.path }, 'unexpected error');
      body = { statusCode: 500, code: ErrorCode.Internal, message: 'Something went wrong on our side. Please try again.' };
    }
    if (res.headersSent) return;
    res.status(body.statusCode).json(body);
  }
}

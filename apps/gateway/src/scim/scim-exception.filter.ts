import { Catch, HttpException, Inject, Injectable, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import type { Response } from 'express';
import { SCIM_MEDIA_TYPE, ScimRequestError, scimError, type ScimError, type ScimType } from '@digicard/contracts';
import type { Logger } from '@digicard/config';
import { ApiHttpException, LOGGER } from '@digicard/server';
import { RedisUnavailableError } from '../redis/redis-call.js';
import { RateLimitedException } from '../security/rate-limiter.js';
import { RETRY_AFTER_SECONDS } from '../http/unavailable.js';

/**
 * Every error of the SCIM routes in SCIM's own format (RFC 7644 3.12): the status as a string, a `scimType` for 400
 * and 409. Whatever is logged names the request by its id only: never the Authorization header.
 */
@Catch()
@Injectable()
export class ScimExceptionFilter implements ExceptionFilter {
  constructor(@Inject(LOGGER) private readonly logger: Logger) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const res = host.switchToHttp().getResponse<Response>();
    const req = host.switchToHttp().getRequest<{ requestId?: string; method: string; path: string }>();
    let body: ScimError;
    if (exception instanceof ScimRequestError) body = scimError(exception.status, exception.message, exception.scimType);
    else if (exception instanceof ApiHttpException) {
      const { statusCode, message, fieldErrors } = exception.body;
      const scimType = (fieldErrors?.['scimType']?.[0] as ScimType | undefined) ?? defaultType(statusCode);
      body = scimError(statusCode, message, scimType);
      if (exception instanceof RateLimitedException) res.setHeader('Retry-After', String(exception.retryAfterSeconds));
      if (statusCode === 503) res.setHeader('Retry-After', String(RETRY_AFTER_SECONDS));
    } else if (exception instanceof RedisUnavailableError) {
      this.logger.warn({ requestId: req.requestId, method: req.method, path: req.path }, 'redis unavailable');
      body = scimError(503, 'The service is briefly unavailable. Please try again.');
      res.setHeader('Retry-After', String(RETRY_AFTER_SECONDS));
    } else if (exception instanceof HttpException) {
      body = scimError(exception.getStatus(), exception.getStatus() === 404 ? 'Not found.' : 'The request could not be read.');
    } else {
      const name = exception instanceof Error ? exception.name : typeof exception;
      this.logger.error({ requestId: req.requestId, method: req.method, path: req.path, error: name }, 'SCIM request failed');
      body = scimError(500, 'Something went wrong on our side. Please try again.');
    }
    if (res.headersSent) return;
    if (body.status === '401') res.setHeader('WWW-Authenticate', 'Bearer realm="DigiCard SCIM"');
    res.status(Number(body.status)).type(SCIM_MEDIA_TYPE).send(JSON.stringify(body));
  }
}

function defaultType(status: number): ScimType | undefined {
  if (status === 409) return 'uniqueness';
  if (status === 400) return 'invalidValue';
  return undefined;
}

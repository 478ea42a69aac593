import { ErrorCode, type ApiError } from '@digicard/contracts';

/** What a client is told when a part of the system behind the gateway (a service, Redis) does not answer. */
export const UNAVAILABLE: ApiError = {
  statusCode: 503,
  code: ErrorCode.ServiceUnavailable,
  message: 'We could not reach our servers just now. Please try again in a minute.',
};

/** Sent as Retry-After with a 503 caused by Redis. */
export const RETRY_AFTER_SECONDS = 30;

import { HttpException } from '@nestjs/common';
import { RpcException } from '@nestjs/microservices';
import { ErrorCode, rpcEnvelope, validationError, type ApiError, type RequestMeta, type RpcDefinition } from '@digicard/contracts';
import type { z } from 'zod';

/** A service's error, carried over NATS to the gateway, which answers HTTP with it as it is. */
export class ServiceError extends RpcException {
  constructor(readonly body: ApiError) {
    super(body);
  }

  static notFound(message: string): ServiceError {
    return new ServiceError({ statusCode: 404, code: ErrorCode.NotFound, message });
  }

  static forbidden(message: string): ServiceError {
    return new ServiceError({ statusCode: 403, code: ErrorCode.Forbidden, message });
  }

  /** A dependency of the service (its database) does not answer just now: the gateway answers 503. */
  static unavailable(): ServiceError {
    return new ServiceError({
      statusCode: 503,
      code: ErrorCode.ServiceUnavailable,
      message: 'We could not reach our servers just now. Please try again in a minute.',
    });
  }
}

/** Checks a request/reply payload against its contract; a bad one is answered with field errors, never handled. */
export function parseRpc<Req extends z.ZodType, Res extends z.ZodType>(
  def: RpcDefinition<Req, Res>,
  payload: unknown,
): { meta: RequestMeta; body: z.output<Req> } {
  const result = rpcEnvelope(def.request).safeParse(payload);
  if (!result.success) throw new ServiceError(validationError(result.error));
  return result.data as { meta: RequestMeta; body: z.output<Req> };
}

/** The HTTP form of an ApiError, for the gateway. */
export class ApiHttpException extends HttpException {
  constructor(readonly body: ApiError) {
    super(body, body.statusCode);
  }
}

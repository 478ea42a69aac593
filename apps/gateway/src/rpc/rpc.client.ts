import { Inject, Injectable } from '@nestjs/common';
import type { ClientProxy } from '@nestjs/microservices';
import { firstValueFrom, timeout, TimeoutError } from 'rxjs';
import type { z } from 'zod';
import { ErrorCode, isApiError, type RequestMeta, type RpcDefinition } from '@digicard/contracts';
import type { Logger } from '@digicard/config';
import { ApiHttpException, CONFIG, LOGGER } from '@digicard/server';
import type { Config } from '../config.js';
import { NATS_CLIENT } from '../tokens.js';

const isNoResponders = (error: unknown): boolean =>
  error instanceof Error && /no subscribers listening|no responders/i.test(error.message);

/** Turns an HTTP call into a NATS request to the owning service, with a time-out, and checks the answer. */
@Injectable()
export class RpcClient {
  constructor(
    @Inject(NATS_CLIENT) private readonly client: ClientProxy,
    @Inject(CONFIG) private readonly config: Config,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async call<Req extends z.ZodType, Res extends z.ZodType>(
    def: RpcDefinition<Req, Res>,
    body: z.input<Req>,
    meta: RequestMeta,
    timeoutMs = this.config.REQUEST_TIMEOUT_MS,
  ): Promise<z.output<Res>> {
    let answer: unknown;
    try {
      answer = await firstValueFrom(this.client.send(def.subject, { meta, body }).pipe(timeout(timeoutMs)));
    } catch (error) {
      if (isApiError(error)) throw new ApiHttpException(error);
      // No answer in time, or nobody subscribed (the service is down): the caller may simply try again.
      if (error instanceof TimeoutError || isNoResponders(error)) {
        this.logger.warn({ subject: def.subject, requestId: meta.requestId, timeoutMs, reason: String(error) }, 'service did not answer');
        throw new ApiHttpException({
          statusCode: 503,
          code: ErrorCode.ServiceUnavailable,
          message: 'We could not reach our servers just now. Please try again in a minute.',
        });
      }
      this.logger.error({ subject: def.subject, requestId: meta.requestId, err: error }, 'service call failed');
      throw new ApiHttpException({
        statusCode: 500,
        code: ErrorCode.Internal,
        message: 'Something went wrong on our side. Please try again.',
      });
    }
    const parsed = def.response.safeParse(answer);
    if (!parsed.success) {
      this.logger.error({ subject: def.subject, issues: parsed.error.issues }, 'service answer breaks its contract');
      throw new ApiHttpException({ statusCode: 500, code: ErrorCode.Internal, message: 'Something went wrong on our side. Please try again.' });
    }
    return parsed.data;
  }
}

import { Inject, Injectable } from '@nestjs/common';
import type { ClientProxy } from '@nestjs/microservices';
import type { z } from 'zod';
import { ErrorCode, type RequestMeta, type RpcDefinition } from '@digicard/contracts';
import type { Logger } from '@digicard/config';
import { ApiHttpException, CONFIG, LOGGER, RpcCallError, RpcClient } from '@digicard/server';
import type { Config } from '../config.js';
import { UNAVAILABLE } from '../http/unavailable.js';
import { NATS_CLIENT } from '../tokens.js';

/** Turns an HTTP call into a NATS request to the owning service and its failures into HTTP answers. */
@Injectable()
export class GatewayRpc {
  private readonly client: RpcClient;

  constructor(
    @Inject(NATS_CLIENT) proxy: ClientProxy,
    @Inject(CONFIG) config: Config,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    this.client = new RpcClient(proxy, config.REQUEST_TIMEOUT_MS);
  }

  async call<Req extends z.ZodType, Res extends z.ZodType>(
    def: RpcDefinition<Req, Res>,
    body: z.input<Req>,
    meta: RequestMeta,
  ): Promise<z.output<Res>> {
    try {
      return await this.client.call(def, body, meta);
    } catch (error) {
      if (!(error instanceof RpcCallError)) throw error;
      if (error.failure === 'rejected' && error.apiError) throw new ApiHttpException(error.apiError);
      if (error.failure === 'unavailable') {
        // No answer in time, or nobody subscribed (the service is down): the caller may simply try again.
        // The cause (time-out, nobody subscribed, the transport) tells an operator which of them to look at.
        this.logger.warn({ subject: def.subject, requestId: meta.requestId, cause: error.message }, 'service did not answer');
        throw new ApiHttpException(UNAVAILABLE);
      }
      this.logger.error({ subject: def.subject, requestId: meta.requestId, err: error }, 'service call failed');
      throw new ApiHttpException({
        statusCode: 500,
        code: ErrorCode.Internal,
        message: 'Something went wrong on our side. Please try again.',
      });
    }
  }
}

import { ClientProxyFactory, NatsRecordBuilder, Transport, type ClientProxy } from '@nestjs/microservices';
import { headers as natsHeaders } from '@nats-io/transport-node';
import { firstValueFrom, timeout, TimeoutError } from 'rxjs';
import type { Provider } from '@nestjs/common';
import type { z } from 'zod';
import { SpanKind, traceHeaders, withSpan } from '@digicard/config';
import { natsConnectionOptions } from '@digicard/messaging';
import { rpcCallDuration, rpcCalls } from './metrics.js';
import { isApiError, type ApiError, type RequestMeta, type RpcDefinition } from '@digicard/contracts';

export type RpcFailure = 'unavailable' | 'rejected' | 'broken-contract' | 'failed';

/** Why a request/reply did not give an answer: the service said no (`rejected`, with its ApiError), or worse. */
export class RpcCallError extends Error {
  override name = 'RpcCallError';
  constructor(
    readonly failure: RpcFailure,
    readonly subject: string,
    readonly apiError: ApiError | null = null,
    detail = '',
  ) {
    super(`${subject}: ${failure}${apiError ? ` (${apiError.code})` : ''}${detail ? `: ${detail}` : ''}`);
  }
}

const isNoResponders = (error: unknown): boolean => error instanceof Error && /no subscribers listening|no responders/i.test(error.message);

/** What Nest sends back when the handler of a service threw something that is not an ApiError: a bug there. */
const isServiceFault = (error: unknown): boolean =>
  typeof error === 'object' && error !== null && (error as { status?: unknown }).status === 'error' && !(error instanceof Error);

export function createNatsClient(natsUrl: string, name: string): ClientProxy {
  return ClientProxyFactory.create({
    transport: Transport.NATS,
    options: { ...natsConnectionOptions(natsUrl), name, maxReconnectAttempts: -1, reconnectTimeWait: 500 },
  });
}

/** The call's envelope, with the active trace context in its NATS headers (W3C `traceparent`) when there is one. */
function withTraceHeaders(envelope: { meta: RequestMeta; body: unknown }): unknown {
  const trace = traceHeaders();
  const names = Object.keys(trace);
  if (names.length === 0) return envelope;
  const h = natsHeaders();
  for (const name of names) h.set(name, trace[name] as string);
  return new NatsRecordBuilder(envelope).setHeaders(h).build();
}

/** Sends a contract's request over NATS with a time-out and checks the answer against the contract. */
export class RpcClient {
  constructor(
    readonly proxy: ClientProxy,
    private readonly timeoutMs: number,
  ) {}

  async call<Req extends z.ZodType, Res extends z.ZodType>(
    def: RpcDefinition<Req, Res>,
    body: z.input<Req>,
    meta: RequestMeta,
    timeoutMs = this.timeoutMs,
  ): Promise<z.output<Res>> {
    const endTimer = rpcCallDuration.startTimer({ subject: def.subject });
    const attributes = { 'messaging.system': 'nats', 'messaging.destination.name': def.subject };
    try {
      const answer = await withSpan(`${def.subject} send`, { kind: SpanKind.CLIENT, attributes }, () =>
        this.request(def, body, meta, timeoutMs),
      );
      rpcCalls.inc({ subject: def.subject, outcome: 'ok' });
      return answer;
    } catch (error) {
      rpcCalls.inc({ subject: def.subject, outcome: error instanceof RpcCallError ? error.failure : 'failed' });
      throw error;
    } finally {
      endTimer();
    }
  }

  private async request<Req extends z.ZodType, Res extends z.ZodType>(
    def: RpcDefinition<Req, Res>,
    body: z.input<Req>,
    meta: RequestMeta,
    timeoutMs: number,
  ): Promise<z.output<Res>> {
    let answer: unknown;
    try {
      answer = await firstValueFrom(this.proxy.send(def.subject, withTraceHeaders({ meta, body })).pipe(timeout(timeoutMs)));
    } catch (error) {
      if (isApiError(error)) throw new RpcCallError('rejected', def.subject, error);
      if (error instanceof TimeoutError) throw new RpcCallError('unavailable', def.subject, null, `no answer in ${timeoutMs} ms`);
      if (isNoResponders(error)) throw new RpcCallError('unavailable', def.subject, null, 'no responders');
      if (isServiceFault(error)) throw new RpcCallError('failed', def.subject, null, 'the service failed');
      // Anything else comes from the transport (NATS away, reconnecting, closed): try again later, not a 500.
      throw new RpcCallError('unavailable', def.subject, null, error instanceof Error ? error.message : 'transport error');
    }
    const parsed = def.response.safeParse(answer);
    if (!parsed.success) throw new RpcCallError('broken-contract', def.subject, null, parsed.error.message);
    return parsed.data;
  }
}

/** The service's one client for asking other services (see `rpcClientProvider`). */
export const RPC_CLIENT = Symbol('RPC_CLIENT');

/** The default time-out of a service's calls to another, when its config does not set `RPC_TIMEOUT_MS`. */
export const DEFAULT_RPC_TIMEOUT_MS = 5000;

/**
 * `RPC_CLIENT`: one NATS client per service for every call it makes to another service, with the time-out of its
 * config (`RPC_TIMEOUT_MS`). It connects at its first call (a service that asks nobody opens no connection) and
 * closes at shutdown.
 */
export function rpcClientProvider(ctx: {
  service: string;
  config: { NATS_URL: string; RPC_TIMEOUT_MS?: number };
  onShutdown(close: () => Promise<void>): void;
}): Provider {
  return {
    provide: RPC_CLIENT,
    useFactory: () => {
      const proxy = createNatsClient(ctx.config.NATS_URL, `${ctx.service}-client`);
      ctx.onShutdown(async () => {
        await (proxy.close() as Promise<void>);
      });
      return new RpcClient(proxy, ctx.config.RPC_TIMEOUT_MS ?? DEFAULT_RPC_TIMEOUT_MS);
    },
  };
}

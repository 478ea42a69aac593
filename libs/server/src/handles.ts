import { Ctx, MessagePattern, NatsContext, Payload } from '@nestjs/microservices';
import { contextFrom, SpanKind, withSpan, type TraceCarrier } from '@digicard/config';
import type { z } from 'zod';
import { ErrorCode, type EventDefinition, type RequestMeta, type RpcAccess, type RpcDefinition } from '@digicard/contracts';
import { isConnectionError, isSerializationFailure } from '@digicard/db';
import type { Transaction } from '@digicard/messaging';
import { parseRpc, ServiceError } from './rpc.js';
import { rpcHandled, rpcHandledDuration } from './metrics.js';

/** The meta of a call that only a signed-in account may make: its id is always there. */
export type SignedInMeta = RequestMeta & { userId: string };

type MetaFor<A> = A extends 'public' | 'service' ? RequestMeta : SignedInMeta;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any definition, whatever its schemas
type AnyRpc = RpcDefinition<any, any, RpcAccess>;

/** The checked body of a call of `D`. */
export type RpcBody<D extends AnyRpc> = z.output<D['request']>;

/** What a handler of `D` looks like: the checked body, who asks, and an answer the contract accepts. */
export type RpcHandler<D extends AnyRpc> = (body: z.output<D['request']>, meta: MetaFor<D['access']>) => Promise<z.input<D['response']>>;

/**
 * Refuses a call its contract does not allow for the caller named in `meta` (set by the gateway from its session).
 * The gateway checks the same before calling: this is the second check, in the service that owns the data.
 */
export function authorize(access: RpcAccess, meta: RequestMeta): void {
  if (access === 'public' || access === 'service') return;
  if (!meta.userId) throw new ServiceError({ statusCode: 401, code: ErrorCode.Unauthorized, message: 'Please log in first.' });
  if (access !== 'account' && !(meta.role !== null && access.includes(meta.role))) {
    throw ServiceError.forbidden('You are not allowed to do that.');
  }
}

/**
 * Answers a request/reply subject of the contract: the envelope is checked against the contract (field errors
 * otherwise), the caller against its access rule, and the method gets the body and who asks.
 *
 * ```ts
 * @Handles(Rpc.saveProfile)
 * save({ document }: SaveProfileBody, meta: SignedInMeta) { return this.saveProfile.execute(meta.userId, document); }
 * ```
 */
export function Handles<D extends AnyRpc>(def: D) {
  // A method may declare fewer parameters than it is given (`list()`): M is the method as written.
  return <M extends RpcHandler<D>>(target: object, key: string | symbol, descriptor: TypedPropertyDescriptor<M>): void => {
    const handler = descriptor.value;
    if (!handler) throw new Error(`@Handles(${def.subject}) must decorate a method`);
    const answer = async function (this: unknown, payload: unknown, nats?: unknown): Promise<unknown> {
      // The caller's trace continues here (its `traceparent` rides in the NATS headers).
      const headers = nats instanceof NatsContext ? (nats.getHeaders() as TraceCarrier | undefined) : null;
      const parent = contextFrom(headers);
      const attributes = { 'messaging.system': 'nats', 'messaging.destination.name': def.subject };
      const endTimer = rpcHandledDuration.startTimer({ subject: def.subject });
      let outcome = 'error';
      return withSpan(`${def.subject} process`, { kind: SpanKind.SERVER, attributes, parent }, async () => {
        const call: { meta: RequestMeta; body: RpcBody<D> } = parseRpc(def, payload);
        authorize(def.access, call.meta);
        try {
          const result = await handler.call(this, call.body, call.meta as MetaFor<D['access']>);
          outcome = 'ok';
          return result;
        } catch (error) {
          // The database is away (a restart, a failover) and retries did not outlast it: the caller may try again.
          if (isConnectionError(error) || isSerializationFailure(error)) throw ServiceError.unavailable();
          throw error;
        }
      })
        .catch((error: unknown) => {
          if (error instanceof ServiceError && error.body.statusCode < 500) outcome = 'rejected';
          throw error;
        })
        .finally(() => {
          endTimer();
          rpcHandled.inc({ subject: def.subject, outcome });
        });
    };
    Object.defineProperty(answer, 'name', { value: String(key) });
    descriptor.value = answer as unknown as M;
    MessagePattern(def.subject)(target, key, descriptor);
    // Without parameter decorators Nest passes the payload alone: the NATS context (its headers) is asked for.
    Payload()(target, key, 0);
    Ctx()(target, key, 1);
  };
}

/** What an event handler gets besides the event's data: the transaction its work joins, and the event's id. */
export interface EventContext {
  /** The work is committed with the record that this event was handled, or not at all. */
  tx: Transaction;
  eventId: string;
  /**
   * Runs `task` once the transaction has committed (queue a job here: never inside the transaction). Should a task
   * fail (Redis away), the record that the event was handled is taken back and the event is redelivered, so the
   * whole handler runs again: its transaction work must be idempotent, its job ids derived from the event.
   */
  afterCommit: (task: () => Promise<void>) => void;
}

export type EventHandler<T extends z.ZodType> = (data: z.output<T>, context: EventContext) => Promise<void>;

export const ON_EVENT = Symbol('ON_EVENT');

export interface OnEventMetadata {
  event: EventDefinition<z.ZodType>;
}

/**
 * Reacts to a domain event once: at start the service opens a durable JetStream consumer named after itself and the
 * event, and each delivery runs this method in one transaction with the record of its id (a redelivery is skipped).
 * The method lives in an injectable class, with the same repositories as the request/reply handlers.
 */
export function OnEvent<T extends z.ZodType>(event: EventDefinition<T>) {
  return <M extends EventHandler<T>>(_target: object, _key: string | symbol, descriptor: TypedPropertyDescriptor<M>): void => {
    if (!descriptor.value) throw new Error(`@OnEvent(${event.subject}) must decorate a method`);
    const metadata: OnEventMetadata = { event };
    Reflect.defineMetadata(ON_EVENT, metadata, descriptor.value);
  };
}

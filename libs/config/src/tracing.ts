import {
  context,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Span,
  type TextMapGetter,
} from '@opentelemetry/api';

/**
 * Trace context helpers on the OpenTelemetry API alone: without a registered SDK (tests, `OTEL_SDK_DISABLED`) they
 * are no-ops that cost a function call. The SDK itself is set up once per process by `startTelemetry`
 * (libs/server/src/telemetry.ts).
 */
export { SpanKind } from '@opentelemetry/api';

/** The W3C header that carries the trace across NATS, the outbox and BullMQ. */
export const TRACEPARENT = 'traceparent';

const tracer = () => trace.getTracer('digicard');

/** A carrier with `get(name)` (NATS headers) or a plain record (job data, an outbox row). */
export type TraceCarrier = { get(name: string): string | undefined | null } | Record<string, unknown>;

const getter: TextMapGetter<TraceCarrier> = {
  keys: (carrier) => (typeof carrier.get === 'function' ? [TRACEPARENT] : Object.keys(carrier)),
  get: (carrier, key) => {
    const value =
      typeof carrier.get === 'function' ? (carrier as { get(n: string): unknown }).get(key) : (carrier as Record<string, unknown>)[key];
    return typeof value === 'string' && value !== '' ? value : undefined;
  },
};

/** The active span's trace context as W3C headers (`traceparent`, maybe `tracestate`); empty outside a sampled span. */
export function traceHeaders(ctx: Context = context.active()): Record<string, string> {
  const carrier: Record<string, string> = {};
  propagation.inject(ctx, carrier);
  return carrier;
}

/** The active span's `traceparent`, or null when there is none (no SDK, or outside any span). */
export function currentTraceparent(ctx: Context = context.active()): string | null {
  return traceHeaders(ctx)[TRACEPARENT] ?? null;
}

/** The remote context a carrier holds (its `traceparent`), or the root context when it holds none. */
export function contextFrom(carrier: TraceCarrier | null | undefined): Context {
  return carrier ? propagation.extract(ROOT_CONTEXT, carrier, getter) : ROOT_CONTEXT;
}

export interface SpanOptions {
  kind?: SpanKind;
  attributes?: Attributes;
  /** The parent: a remote context (`contextFrom`); the active context otherwise. */
  parent?: Context;
}

/**
 * Runs `work` inside a new active span, which ends when `work` settles; a thrown error marks it failed and is
 * rethrown unchanged.
 */
export function withSpan<T>(name: string, options: SpanOptions, work: (span: Span) => Promise<T>): Promise<T> {
  const parent = options.parent ?? context.active();
  return tracer().startActiveSpan(
    name,
    { kind: options.kind ?? SpanKind.INTERNAL, attributes: options.attributes ?? {} },
    parent,
    async (span) => {
      try {
        return await work(span);
      } catch (error) {
        // The error's name only: messages can carry parameters (database errors), which must not leave the process.
        span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.name : 'error' });
        throw error;
      } finally {
        span.end();
      }
    },
  );
}

/** The ids of the active span, for a log line; null outside a recording span. */
export function activeSpanIds(): { trace_id: string; span_id: string } | null {
  const span = trace.getSpan(context.active());
  if (!span) return null;
  // An unsampled span (ratio sampling) still has ids worth logging: they tie the process's lines together.
  const { traceId, spanId } = span.spanContext();
  return traceId === '00000000000000000000000000000000' ? null : { trace_id: traceId, span_id: spanId };
}

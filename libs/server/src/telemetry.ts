import { context, createContextKey, propagation, ROOT_CONTEXT, trace, type Context } from '@opentelemetry/api';
import type { Sampler, SpanProcessor } from '@opentelemetry/sdk-trace-node';

/** How a process traces, read from the standard OpenTelemetry variables. */
export interface TelemetrySettings {
  enabled: boolean;
  /** The share of new traces sampled (a trace continued from a caller follows the caller's decision). */
  ratio: number;
  /** The OTLP/HTTP endpoint spans are sent to (`…/v1/traces` is appended); null: ids and propagation only. */
  endpoint: string | null;
}

/**
 * `OTEL_SDK_DISABLED=true` turns tracing off; under `NODE_ENV=test` it is off unless `OTEL_SDK_DISABLED=false`.
 * `OTEL_TRACES_SAMPLER_ARG` is the ratio (1 by default), `OTEL_EXPORTER_OTLP_ENDPOINT` where spans go (optional:
 * without it trace ids still reach the logs and travel with every message).
 */
export function telemetrySettings(env: NodeJS.ProcessEnv = process.env): TelemetrySettings {
  const disabled = env['OTEL_SDK_DISABLED'];
  const enabled = disabled === undefined ? env['NODE_ENV'] !== 'test' : disabled.toLowerCase() !== 'true';
  const arg = Number(env['OTEL_TRACES_SAMPLER_ARG'] ?? '1');
  const ratio = Number.isFinite(arg) ? Math.min(1, Math.max(0, arg)) : 1;
  const endpoint = env['OTEL_EXPORTER_OTLP_ENDPOINT']?.trim() || null;
  return { enabled, ratio, endpoint };
}

export interface Telemetry {
  readonly settings: TelemetrySettings;
  /** Sends the spans still buffered and stops; call last at shutdown. */
  shutdown(): Promise<void>;
}

let started: (Telemetry & { service: string }) | null = null;

/** Set on a root context whose trace was sampled before its first span started (`sampledRootContext`). */
const PRESAMPLED = createContextKey('digicard.presampled');
const PRESAMPLED_ROOT = ROOT_CONTEXT.setValue(PRESAMPLED, true);
/** The share of new traces sampled while tracing is on; 0 when it is off. */
let rootRatio = 0;

/**
 * For a hot path that starts a trace of its own and calls nothing (the gateway's cached public page): decides the
 * sampling first and hands back the root context to start the span in, or null when this trace is not sampled. A
 * trace that is not sampled then costs no span at all (no ids generated, no sampler call); one that is sampled is
 * recorded and exported like any other. `ratio` lowers the share for this path (never above the process's ratio):
 * a path answered thousands of times a second gives the same trace each time, and would be most of the spans stored.
 */
export function sampledRootContext(ratio = 1): Context | null {
  const share = Math.min(ratio, rootRatio);
  return share > 0 && Math.random() < share ? PRESAMPLED_ROOT : null;
}

/**
 * Sets up tracing for this process, once, before Nest starts (each app's main.ts): a tracer provider named after the
 * service, parent-based ratio sampling, W3C trace context propagation, batching to OTLP/HTTP when an endpoint is
 * set. Spans are made by hand where work crosses a boundary (HTTP in, NATS, the outbox, JetStream, BullMQ, SMTP,
 * PDF render): nothing is monkey-patched, so the public page's fast path pays only what it asks for.
 *
 * The SDK (exporter, resource, tracer provider) is imported only when tracing is on: a process with tracing off
 * (every test process, and any deployment that turns it off) does not read it at start-up. The API is always
 * there; with no provider registered its calls are no-ops.
 */
export async function startTelemetry(
  service: string,
  env: NodeJS.ProcessEnv = process.env,
  processors: SpanProcessor[] = [],
): Promise<Telemetry> {
  if (started) {
    if (started.service !== service) throw new Error(`telemetry already started for ${started.service}`);
    return started;
  }
  const settings = telemetrySettings(env);
  if (!settings.enabled) {
    started = {
      service,
      settings,
      shutdown: () => {
        started = null;
        return Promise.resolve();
      },
    };
    return started;
  }
  const [{ W3CTraceContextPropagator }, { OTLPTraceExporter }, { resourceFromAttributes }, sdk] = await Promise.all([
    import('@opentelemetry/core'),
    import('@opentelemetry/exporter-trace-otlp-http'),
    import('@opentelemetry/resources'),
    import('@opentelemetry/sdk-trace-node'),
  ]);
  const { BatchSpanProcessor, NodeTracerProvider, ParentBasedSampler, SamplingDecision, TraceIdRatioBasedSampler } = sdk;
  const byRatio = new TraceIdRatioBasedSampler(settings.ratio);
  // New traces: by the ratio, but for a root already sampled by `sampledRootContext` (at that ratio or below it).
  const root: Sampler = {
    shouldSample: (ctx, traceId) =>
      ctx.getValue(PRESAMPLED) === true ? { decision: SamplingDecision.RECORD_AND_SAMPLED } : byRatio.shouldSample(ctx, traceId),
    toString: () => `PresampledOr{${byRatio.toString()}}`,
  };
  const spanProcessors = [...processors];
  if (settings.endpoint) {
    const url = `${settings.endpoint.replace(/\/+$/, '')}/v1/traces`;
    spanProcessors.push(new BatchSpanProcessor(new OTLPTraceExporter({ url }), { scheduledDelayMillis: 1000 }));
  }
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': service, 'service.namespace': 'digicard' }),
    sampler: new ParentBasedSampler({ root }),
    spanProcessors,
  });
  provider.register({ propagator: new W3CTraceContextPropagator() });
  rootRatio = settings.ratio;
  started = {
    service,
    settings,
    async shutdown() {
      rootRatio = 0;
      await provider.shutdown();
      trace.disable();
      propagation.disable();
      context.disable();
      started = null;
    },
  };
  return started;
}

/** Sends the spans this process still holds (the last step of a graceful stop); nothing when tracing is off. */
export async function shutdownTelemetry(): Promise<void> {
  await started?.shutdown();
}

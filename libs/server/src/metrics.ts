import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry, type LabelValues } from 'prom-client';

/**
 * The process's Prometheus metrics, served at `/metrics` on its health port (never on the public one). Counters and
 * histograms are updated where the work happens; the gauges of state kept elsewhere (the outbox, JetStream
 * consumers, BullMQ queues, dead letters) are read when Prometheus scrapes, each read bounded by a time-out.
 */
export const metricsRegistry = new Registry();

let defaultsStarted = false;
/** Node's own metrics (event loop lag, heap, GC), once per process. */
export function startDefaultMetrics(): void {
  if (defaultsStarted) return;
  defaultsStarted = true;
  collectDefaultMetrics({ register: metricsRegistry });
}

const registers = [metricsRegistry];
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** One series of a counter that a hot path counts in a plain number (`boundCounter`), added to the counter when read. */
interface Bound {
  readonly labels: LabelValues<string>;
  n: number;
}
const boundOf = new WeakMap<object, Bound[]>();

/** The `collect` of a counter that takes bound series: what they counted since the last read goes into the counter. */
function addBound(this: Counter<string>): void {
  for (const bound of boundOf.get(this) ?? []) {
    if (bound.n === 0) continue;
    const n = bound.n;
    bound.n = 0;
    this.inc(bound.labels, n);
  }
}

/**
 * One series of `counter` (its labels fixed once), counted by a hot path without prom-client's per-call work (a label
 * hash string, validation and a closure per `inc`): `inc()` adds 1 to a number, and the sum goes into the counter
 * whenever it is read (a scrape, `get()`), so what Prometheus sees is exactly what `counter.inc(labels)` would have
 * shown. Only for the counters below that are made for it (their `collect` is `addBound`).
 */
export function boundCounter<T extends string>(counter: Counter<T>, labels: LabelValues<T>): { inc(): void } {
  const list = boundOf.get(counter);
  if (!list) throw new Error('this counter does not take bound series (its collect is not addBound)');
  const bound: Bound = { labels, n: 0 };
  list.push(bound);
  return {
    inc() {
      bound.n += 1;
    },
  };
}

function takesBound<T extends string>(counter: Counter<T>): Counter<T> {
  boundOf.set(counter, []);
  return counter;
}

export const httpRequests = takesBound(
  new Counter({
    name: 'digicard_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status code',
    labelNames: ['method', 'route', 'status'] as const,
    registers,
    collect: addBound,
  }),
);
export const httpDuration = new Histogram({
  name: 'digicard_http_request_duration_seconds',
  help: 'Time to answer an HTTP request, by method and route pattern',
  labelNames: ['method', 'route'] as const,
  buckets: LATENCY_BUCKETS,
  registers,
});
/** Outcomes: `ok`, `rejected` (an ApiError: validation, not found, forbidden), `error` (anything else). */
export const rpcHandled = new Counter({
  name: 'digicard_rpc_handled_total',
  help: 'NATS requests answered by this service, by subject and outcome',
  labelNames: ['subject', 'outcome'] as const,
  registers,
});
export const rpcHandledDuration = new Histogram({
  name: 'digicard_rpc_handled_duration_seconds',
  help: 'Time to answer a NATS request, by subject',
  labelNames: ['subject'] as const,
  buckets: LATENCY_BUCKETS,
  registers,
});
/** Outcomes: `ok` or an `RpcFailure` (`rejected`, `unavailable`, `failed`, `broken-contract`). */
export const rpcCalls = new Counter({
  name: 'digicard_rpc_calls_total',
  help: 'NATS requests this process made to another service, by subject and outcome',
  labelNames: ['subject', 'outcome'] as const,
  registers,
});
export const rpcCallDuration = new Histogram({
  name: 'digicard_rpc_call_duration_seconds',
  help: 'Time until another service answered (or the call failed), by subject',
  labelNames: ['subject'] as const,
  buckets: LATENCY_BUCKETS,
  registers,
});
export const eventsHandled = new Counter({
  name: 'digicard_events_handled_total',
  help: 'JetStream deliveries handled by a consumer, by durable consumer and outcome (ok, retry, dead-letter)',
  labelNames: ['durable', 'outcome'] as const,
  registers,
});
export const itnVerdicts = new Counter({
  name: 'digicard_itn_verdicts_total',
  help: 'PayFast ITNs decided, by verdict (applied, duplicate, ignored, rejected)',
  labelNames: ['verdict'] as const,
  registers,
});
export const proofRenderSeconds = new Histogram({
  name: 'digicard_proof_render_seconds',
  help: 'Time to draw one proof (PDF and PNG)',
  buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30],
  registers,
});
export const publicPageCache = takesBound(
  new Counter({
    name: 'digicard_public_page_cache_total',
    help: 'Public profile page views by whether the rendered page was in the cache (hit) or not (miss)',
    labelNames: ['result'] as const,
    registers,
    collect: addBound,
  }),
);

type Labels = Record<string, string>;
type Probe = (set: (labels: Labels, value: number) => void) => Promise<void>;
const PROBE_TIMEOUT_MS = 2000;

/** A gauge read at scrape time from its probes (one per queue, consumer, outbox...): a failing probe is left out. */
function probedGauge(name: string, help: string, labelNames: string[]) {
  const probes = new Set<Probe>();
  new Gauge({
    name,
    help,
    labelNames,
    registers,
    async collect() {
      this.reset();
      await Promise.all(
        [...probes].map((probe) =>
          withTimeout(
            probe((labels, value) => this.set(labels, value)),
            PROBE_TIMEOUT_MS,
          ).catch(() => undefined),
        ),
      );
    },
  });
  return {
    /** Adds a probe; returns how to take it away (at shutdown). */
    add(probe: Probe): () => void {
      probes.add(probe);
      return () => probes.delete(probe);
    },
  };
}

export const outboxPending = probedGauge('digicard_outbox_pending', 'Outbox rows not yet published, by service', ['service']);
export const outboxOldestAge = probedGauge(
  'digicard_outbox_oldest_age_seconds',
  'Age of the oldest outbox row not yet published (0 when none), by service',
  ['service'],
);
export const consumerPending = probedGauge(
  'digicard_jetstream_consumer_pending',
  'Events in the stream not yet delivered to the consumer (its lag), by stream and durable consumer',
  ['stream', 'durable'],
);
export const consumerAckPending = probedGauge(
  'digicard_jetstream_consumer_ack_pending',
  'Events delivered to the consumer and not yet acknowledged, by stream and durable consumer',
  ['stream', 'durable'],
);
export const consumerRedelivered = probedGauge(
  'digicard_jetstream_consumer_redelivered',
  'Events being delivered again (delivered more than once, not yet acknowledged), by stream and durable consumer',
  ['stream', 'durable'],
);
export const deadLetters = probedGauge('digicard_dead_letters', 'Events in a dead-letter stream, waiting for an operator', ['stream']);
export const queueJobs = probedGauge('digicard_queue_jobs', 'BullMQ jobs by queue and state (waiting, active, delayed, failed)', [
  'queue',
  'state',
]);

async function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** The text Prometheus scrapes, and its content type. */
export async function metricsText(): Promise<{ contentType: string; body: string }> {
  return { contentType: metricsRegistry.contentType, body: await metricsRegistry.metrics() };
}

/** A shutdown step that takes a metrics probe away. */
export function unregister(remove: () => void): () => Promise<void> {
  return () => {
    remove();
    return Promise.resolve();
  };
}

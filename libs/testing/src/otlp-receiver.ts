import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { waitFor } from './infra.js';

/** One span as an OTLP/HTTP JSON export carries it, with the service of its resource. */
export interface ReceivedSpan {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  kind: number;
  attributes: Record<string, unknown>;
}

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  doubleValue?: number;
  boolValue?: boolean;
}
interface OtlpAttribute {
  key: string;
  value: OtlpValue;
}
interface OtlpExport {
  resourceSpans?: Array<{
    resource?: { attributes?: OtlpAttribute[] };
    scopeSpans?: Array<{
      spans?: Array<{ traceId: string; spanId: string; parentSpanId?: string; name: string; kind: number; attributes?: OtlpAttribute[] }>;
    }>;
  }>;
}

const valueOf = (v: OtlpValue): unknown => v.stringValue ?? v.intValue ?? v.doubleValue ?? v.boolValue;
const attributesOf = (list: OtlpAttribute[] = []): Record<string, unknown> =>
  Object.fromEntries(list.map((a) => [a.key, valueOf(a.value)]));

/**
 * A local OTLP/HTTP receiver for tests: what a collector would be, on the wire the apps really use. It takes
 * `POST /v1/traces` in the JSON encoding (`OTEL_EXPORTER_OTLP_PROTOCOL=http/json`) and keeps every span.
 */
export class OtlpReceiver {
  readonly spans: ReceivedSpan[] = [];
  private server: Server | null = null;

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        if (req.method !== 'POST' || req.url !== '/v1/traces' || !/json/.test(req.headers['content-type'] ?? '')) {
          res.writeHead(415).end();
          return;
        }
        try {
          this.take(JSON.parse(Buffer.concat(chunks).toString('utf8')) as OtlpExport);
          res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
        } catch {
          res.writeHead(400).end();
        }
      });
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    return this;
  }

  /** The base URL to give the apps as `OTEL_EXPORTER_OTLP_ENDPOINT`. */
  get url(): string {
    const address = this.server?.address() as AddressInfo | null;
    if (!address) throw new Error('the OTLP receiver is not started');
    return `http://127.0.0.1:${address.port}`;
  }

  /** The environment that turns an app's tracing on, every trace sampled, exported here. */
  get env(): Record<string, string> {
    return {
      OTEL_SDK_DISABLED: 'false',
      OTEL_EXPORTER_OTLP_ENDPOINT: this.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_TRACES_SAMPLER_ARG: '1',
    };
  }

  private take(body: OtlpExport): void {
    for (const rs of body.resourceSpans ?? []) {
      const name = attributesOf(rs.resource?.attributes)['service.name'];
      const service = typeof name === 'string' ? name : '';
      for (const ss of rs.scopeSpans ?? []) {
        for (const s of ss.spans ?? []) {
          this.spans.push({
            service,
            traceId: s.traceId,
            spanId: s.spanId,
            parentSpanId: s.parentSpanId ?? '',
            name: s.name,
            kind: s.kind,
            attributes: attributesOf(s.attributes),
          });
        }
      }
    }
  }

  /** Waits until a span matching `match` has arrived, and returns it. */
  async span(what: string, match: (s: ReceivedSpan) => boolean, timeoutMs = 15_000): Promise<ReceivedSpan> {
    return waitFor(`span: ${what}`, () => Promise.resolve(this.spans.find(match) ?? null), timeoutMs);
  }

  trace(traceId: string): ReceivedSpan[] {
    return this.spans.filter((s) => s.traceId === traceId);
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

import type { IncomingMessage, ServerResponse } from 'node:http';
import { context, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Context, type Span } from '@opentelemetry/api';

/**
 * The gateway's span of one HTTP request: the root of the trace of what a person did. A `traceparent` sent by the
 * browser is not continued (anyone can send one): every request starts its own trace, which the services continue.
 * `root` is the context it starts in: ROOT_CONTEXT, or the pre-sampled one of `sampledRootContext()`.
 */
export function startHttpSpan(req: IncomingMessage, root: Context = ROOT_CONTEXT): Span {
  return trace
    .getTracer('digicard')
    .startSpan(req.method ?? 'HTTP', { kind: SpanKind.SERVER, attributes: { 'http.request.method': req.method ?? '' } }, root);
}

/** Ends the request's span with its route (the pattern, never the path: no ids or tokens) and status. */
export function endHttpSpan(span: Span, method: string, route: string, status: number): void {
  if (span.isRecording()) {
    span.updateName(`${method} ${route}`);
    span.setAttributes({ 'http.route': route, 'http.response.status_code': status });
    if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
  }
  span.end();
}

/**
 * Runs the rest of the request in a new span: `next` and every listener of the request and response streams (body
 * parsers read the body in stream callbacks, which would otherwise lose the context).
 */
export function runInHttpSpan(req: IncomingMessage, res: ServerResponse, next: () => void): Span {
  const span = startHttpSpan(req);
  const ctx = trace.setSpan(ROOT_CONTEXT, span);
  context.bind(ctx, req);
  context.bind(ctx, res);
  context.with(ctx, next);
  return span;
}

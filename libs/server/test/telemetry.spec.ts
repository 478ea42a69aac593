import assert from 'node:assert/strict';
import { afterEach, describe, it } from '@jest/globals';
import { trace } from '@opentelemetry/api';
import { sampledRootContext, shutdownTelemetry, startTelemetry, telemetrySettings } from '../src/telemetry.js';

// How a process decides to trace, and that a process with tracing off hands out only the API's no-op spans. The
// path with tracing on (the SDK imported then) is shown across processes by apps/gateway's tracing.e2e test: under
// Jest's module registry the SDK and this file would not share one API instance.

const NO_TRACE = '00000000000000000000000000000000';

afterEach(async () => {
  await shutdownTelemetry();
});

describe('telemetrySettings', () => {
  it('is off under NODE_ENV=test unless OTEL_SDK_DISABLED=false, and on elsewhere unless disabled', () => {
    assert.equal(telemetrySettings({ NODE_ENV: 'test' }).enabled, false);
    assert.equal(telemetrySettings({ NODE_ENV: 'test', OTEL_SDK_DISABLED: 'false' }).enabled, true);
    assert.equal(telemetrySettings({ NODE_ENV: 'production' }).enabled, true);
    assert.equal(telemetrySettings({ NODE_ENV: 'production', OTEL_SDK_DISABLED: 'TRUE' }).enabled, false);
  });

  it('clamps the sampling ratio to [0, 1], reads 1 from garbage, and trims the endpoint', () => {
    assert.equal(telemetrySettings({ OTEL_TRACES_SAMPLER_ARG: '7' }).ratio, 1);
    assert.equal(telemetrySettings({ OTEL_TRACES_SAMPLER_ARG: '-1' }).ratio, 0);
    assert.equal(telemetrySettings({ OTEL_TRACES_SAMPLER_ARG: '0.25' }).ratio, 0.25);
    assert.equal(telemetrySettings({ OTEL_TRACES_SAMPLER_ARG: 'x' }).ratio, 1);
    assert.equal(telemetrySettings({ OTEL_EXPORTER_OTLP_ENDPOINT: '  ' }).endpoint, null);
    assert.equal(telemetrySettings({ OTEL_EXPORTER_OTLP_ENDPOINT: ' http://otel:4318 ' }).endpoint, 'http://otel:4318');
  });
});

describe('startTelemetry', () => {
  it('with tracing off, spans are no-ops without ids', async () => {
    const telemetry = await startTelemetry('probe', { NODE_ENV: 'test' });
    assert.equal(telemetry.settings.enabled, false);
    const span = trace.getTracer('t').startSpan('off');
    assert.equal(span.spanContext().traceId, NO_TRACE);
    span.end();
  });

  it('refuses to start a second time under another name', async () => {
    const first = await startTelemetry('probe', { NODE_ENV: 'test' });
    assert.equal(await startTelemetry('probe', { NODE_ENV: 'test' }), first);
    await assert.rejects(startTelemetry('other', { NODE_ENV: 'test' }), /already started for probe/);
  });

  it('pre-samples a hot path’s root at the process’s ratio, and never with tracing off or stopped', async () => {
    await startTelemetry('probe', { NODE_ENV: 'test' });
    assert.equal(sampledRootContext(), null, 'tracing off');
    await shutdownTelemetry();

    await startTelemetry('probe', { NODE_ENV: 'production', OTEL_TRACES_SAMPLER_ARG: '0.25' });
    let sampled = 0;
    for (let i = 0; i < 20_000; i++) if (sampledRootContext() !== null) sampled += 1;
    // 5,000 expected; a binomial's standard deviation here is about 61.
    assert.ok(sampled > 4_600 && sampled < 5_400, `${sampled} of 20,000 sampled at 0.25`);
    // A hot path's own, lower share; never above the process's.
    const share = (ratio: number) => {
      let n = 0;
      for (let i = 0; i < 20_000; i++) if (sampledRootContext(ratio) !== null) n += 1;
      return n;
    };
    const lower = share(0.05);
    // 1,000 expected, standard deviation about 31.
    assert.ok(lower > 850 && lower < 1_150, `${lower} of 20,000 sampled at the path's 0.05`);
    const capped = share(0.9);
    assert.ok(capped > 4_600 && capped < 5_400, `${capped} of 20,000 sampled at 0.9 asked, 0.25 allowed`);
    assert.equal(share(0), 0, "the path's ratio 0");
    await shutdownTelemetry();
    assert.equal(sampledRootContext(), null, 'stopped');

    await startTelemetry('probe', { NODE_ENV: 'production', OTEL_TRACES_SAMPLER_ARG: '0' });
    for (let i = 0; i < 1000; i++) assert.equal(sampledRootContext(), null, 'ratio 0');
  });
});

import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { Counter, Registry } from 'prom-client';
import { boundCounter, httpRequests, metricsText, publicPageCache } from '../src/metrics.js';

// A hot path's bound series (the public page's fast path) must show on /metrics exactly as `counter.inc(labels)` would.

const line = (text: string, prefix: string) => text.split('\n').find((l) => l.startsWith(prefix));

describe('boundCounter', () => {
  it('adds what a bound series counted to its counter when read, once, beside plain inc() of the same labels', async () => {
    const labels = { method: 'GET', route: '/:bound-probe', status: 200 };
    const bound = boundCounter(httpRequests, labels);
    for (let i = 0; i < 5; i++) bound.inc();
    httpRequests.inc(labels);
    const series = 'digicard_http_requests_total{method="GET",route="/:bound-probe",status="200"}';
    assert.equal(line((await metricsText()).body, series), `${series} 6`);
    assert.equal(line((await metricsText()).body, series), `${series} 6`, 'a second read adds nothing more');
    bound.inc();
    const values = (await httpRequests.get()).values.filter((v) => v.labels.route === '/:bound-probe');
    assert.equal(values.map((v) => v.value).join(), '7');

    const other = boundCounter(httpRequests, { ...labels, status: 304 });
    other.inc();
    const hits = boundCounter(publicPageCache, { result: 'hit' });
    hits.inc();
    hits.inc();
    const text = (await metricsText()).body;
    assert.match(text, /digicard_http_requests_total\{method="GET",route="\/:bound-probe",status="304"\} 1\n/);
    assert.match(text, /digicard_public_page_cache_total\{result="hit"\} 2\n/);
  });

  it('refuses a counter that was not made to take bound series', () => {
    const plain = new Counter({ name: 'probe_total', help: 'probe', labelNames: ['a'] as const, registers: [new Registry()] });
    assert.throws(() => boundCounter(plain, { a: 'x' }), /does not take bound series/);
  });
});

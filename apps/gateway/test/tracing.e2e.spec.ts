import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { OtlpReceiver, registerOwner, TestSystem, waitFor, type ReceivedSpan } from '@digicard/testing';

// Crosses four processes (gateway, identity, notifications and its email worker, over NATS, the outbox, JetStream,
// BullMQ and SMTP): the system lane is the lowest that shows one trace across them.
describe('tracing: one registration is one trace, from the HTTP request to the email sent', () => {
  let system: TestSystem;
  const receiver = new OtlpReceiver();

  beforeAll(async () => {
    await receiver.start();
    const env = receiver.env;
    system = await TestSystem.start({
      apps: ['mail-catcher', 'identity', 'notifications', 'profiles', 'gateway'],
      // profiles renders the public page of the last test; it traces nothing here (the registration's trace stays the
      // three services it names).
      // The cached public page is traced at PUBLIC_PAGE_TRACE_RATIO (0.01 by default), here every one.
      env: { gateway: { ...env, PUBLIC_PAGE_TRACE_RATIO: '1' }, identity: env, notifications: env },
    });
  });
  afterAll(async () => {
    await system?.stop();
    await receiver.stop();
  });

  it('carries the trace through NATS request/reply, the outbox, the consumer, the job and the SMTP send', async () => {
    const email = 'lindiwe@example.co.za';
    const res = await system.client().request('/api/accounts', {
      body: { username: 'lindiwe-n', firstName: 'Lindiwe', lastName: 'Nkosi', email, password: 'a long enough passphrase' },
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    await system.mail.waitFor((m) => m.to.includes(email));

    const http = await receiver.span('the gateway request', (s) => s.service === 'gateway' && s.name === 'POST /api/accounts');
    assert.equal(http.parentSpanId, '', 'the gateway starts the trace');
    assert.match(http.traceId, /^[0-9a-f]{32}$/);
    const smtp = await receiver.span('the SMTP send', (s) => s.service === 'notifications' && s.name === 'smtp send');
    assert.equal(smtp.traceId, http.traceId, `the email is sent in the trace of the registration; spans seen:\n${traces(receiver.spans)}`);

    const spans = receiver.trace(http.traceId);
    const has = (service: string, name: string) => spans.some((s) => s.service === service && s.name === name);
    assert.ok(has('gateway', 'identity.account.register send'), names(spans));
    assert.ok(has('identity', 'identity.account.register process'), names(spans));
    assert.ok(has('identity', 'identity.user.registered publish'), names(spans));
    assert.ok(has('notifications', 'identity.user.registered process'), names(spans));
    assert.ok(has('notifications', 'email process'), names(spans));
    assert.deepEqual(new Set(spans.map((s) => s.service)), new Set(['gateway', 'identity', 'notifications']));

    // Each span hangs from one of the same trace (one tree), and only the gateway's request has no parent.
    const ids = new Set(spans.map((s) => s.spanId));
    for (const s of spans) if (s !== http) assert.ok(ids.has(s.parentSpanId), `${s.service} ${s.name} has no parent in the trace`);

    // The log line of the email sent names the same trace.
    const sent = system
      .logsOf('notifications')
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .find((l) => l['msg'] === 'email sent');
    assert.equal(sent?.['trace_id'], http.traceId);
    assert.match(String(sent?.['span_id']), /^[0-9a-f]{16}$/);
  });

  it('does not continue a trace the browser sends: every request starts its own', async () => {
    const foreign = '0af7651916cd43dd8448eb211c80319c';
    const res = await fetch(`${system.gatewayUrl}/api/session`, { headers: { traceparent: `00-${foreign}-b7ad6b7169203331-01` } });
    assert.equal(res.status, 200);
    const span = await receiver.span('GET /api/session', (s) => s.service === 'gateway' && s.name === 'GET /api/session');
    assert.notEqual(span.traceId, foreign);
    assert.equal(span.parentSpanId, '');
  });

  it('traces a cached public page answered before the stack, as its own root span (every one at its ratio 1)', async () => {
    await registerOwner(system, { username: 'thandi', firstName: 'Thandi', lastName: 'Zulu', email: 'thandi@example.co.za' });
    const page = `${system.gatewayUrl}/thandi`;
    // The first view renders the page (asking profiles); the next ones are answered from the cache by the fast path,
    // which starts its span only for a sampled trace: at ratio 1, every one.
    await waitFor('the page', async () => (await fetch(page)).status === 200);
    for (let i = 0; i < 3; i++) assert.equal((await fetch(page)).status, 200);
    // The views that rendered (or missed) asked profiles: a child span in their trace. The cached ones called nothing.
    const cached = await waitFor('three cached views traced', () => {
      const views = receiver.spans.filter((s) => s.service === 'gateway' && s.name === 'GET /:username');
      const alone = views.filter((s) => receiver.trace(s.traceId).length === 1);
      return Promise.resolve(alone.length >= 3 && views.length > alone.length ? views : null);
    });
    assert.ok(
      cached.every((s) => s.parentSpanId === ''),
      'each view is the root of its own trace',
    );
    assert.equal(new Set(cached.map((s) => s.traceId)).size, cached.length, traces(cached));
  });
});

const traces = (spans: ReceivedSpan[]) =>
  spans
    .map((s) => `${s.traceId.slice(0, 8)} ${s.spanId.slice(0, 6)}<-${s.parentSpanId.slice(0, 6) || 'root'} ${s.service}: ${s.name}`)
    .join('\n');
const names = (spans: ReceivedSpan[]) => spans.map((s) => `${s.service}: ${s.name}`).join('\n');

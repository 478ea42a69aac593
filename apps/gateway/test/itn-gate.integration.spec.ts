import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { Rpc } from '@digicard/contracts';
import { GatewayHealth } from '../src/health/gateway-health.js';
import { InProcessGateway } from './support/in-process-gateway.js';

/** Documentation addresses standing in for PayFast's notification servers and for someone else. */
const PAYFAST_RANGE = '198.51.100.0/28';
const STRANGER = '203.0.113.9';
const FORM = 'm_payment_id=01234567-89ab-cdef-0123-456789abcdef&pf_payment_id=1&payment_status=COMPLETE&signature=x';

/**
 * PayFast's notification route (issue 28, item 2): the gateway refuses what does not come from PayFast's ranges before
 * anything reaches the payments service, caps the body, limits each address, and reports refused sources in health.
 * STAND-IN FOR PAYMENTS: a responder on `payments.itn.receive` that keeps what it was asked to store.
 */
describe('POST /api/payfast/notify: source, size and rate checked before anything is stored', () => {
  let gateway: InProcessGateway;
  let nats: NatsConnection;
  const stored: Array<{ rawBody: string; sourceIp: string | null }> = [];

  const notify = (from: string, body: string | Uint8Array<ArrayBuffer> = FORM, headers: Record<string, string> = {}) =>
    fetch(`${gateway.gatewayUrl}/api/payfast/notify`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': from, ...headers },
      body,
    });

  beforeAll(async () => {
    gateway = await InProcessGateway.start({ TRUST_PROXY: '1', PAYFAST_SOURCE_RANGES: PAYFAST_RANGE, RATE_LIMIT_ITN_IP: '3/60' });
    nats = await connect({ servers: gateway.natsUrl });
    const sub = nats.subscribe(Rpc.receiveItn.subject);
    void (async () => {
      for await (const msg of sub) {
        const packet = JSON.parse(new TextDecoder().decode(msg.data)) as {
          id: string;
          data: { body: { rawBody: string; sourceIp: string | null } };
        };
        stored.push(packet.data.body);
        msg.respond(JSON.stringify({ id: packet.id, response: { received: true }, isDisposed: true }));
      }
    })();
    await nats.flush();
  });
  afterAll(async () => {
    await nats?.close();
    await gateway?.stop();
  });

  it('passes a notification from PayFast’s range on with its address', async () => {
    const res = await notify('198.51.100.3');
    assert.equal(res.status, 200, await res.text());
    assert.deepEqual(stored, [{ rawBody: FORM, sourceIp: '198.51.100.3' }]);
  });

  it('refuses another address with 403 before storing anything, logs it, and health counts it for an hour', async () => {
    const health = gateway.app.get(GatewayHealth);
    assert.equal((await health.ready()).alerts, undefined, 'no alert before any refusal');
    stored.length = 0;
    for (let i = 0; i < 2; i += 1) {
      const res = await notify(STRANGER);
      assert.equal(res.status, 403);
      assert.match(((await res.json()) as { message: string }).message, /PayFast’s addresses/);
    }
    assert.deepEqual(stored, []);
    assert.ok(gateway.logs().some((l) => l.includes('PayFast notification refused') && l.includes(STRANGER)));
    const report = await health.ready();
    assert.equal(report.status, 'ok', 'a refused source alerts but does not make the gateway unready');
    assert.ok(
      report.alerts?.some((a) => a.startsWith('itnSourceRejected: 2 PayFast notification(s) refused in the last hour')),
      JSON.stringify(report.alerts),
    );
    assert.ok((await health.system()).alerts?.some((a) => a.includes('itnSourceRejected')));
  });

  it('refuses a body longer than the cap with 413, declared or not, and stores nothing', async () => {
    stored.length = 0;
    const long = `${FORM}&custom_str1=${'a'.repeat(17 * 1024)}`;
    assert.equal((await notify('198.51.100.4', long)).status, 413);
    // Sent in chunks without a declared length: the parser stops at the cap.
    const chunked = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(long));
        controller.close();
      },
    });
    const res = await fetch(`${gateway.gatewayUrl}/api/payfast/notify`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': '198.51.100.5' },
      body: chunked,
      duplex: 'half',
    } as RequestInit);
    assert.equal(res.status, 413);
    assert.deepEqual(stored, []);
  });

  it('limits each address (429 with Retry-After beyond it); another PayFast address is counted on its own', async () => {
    stored.length = 0;
    for (let i = 0; i < 3; i += 1) assert.equal((await notify('198.51.100.6')).status, 200, `notification ${i + 1}`);
    const over = await notify('198.51.100.6');
    assert.equal(over.status, 429);
    assert.ok(Number(over.headers.get('retry-after')) > 0);
    assert.equal(stored.length, 3);
    assert.equal((await notify('198.51.100.7')).status, 200);
    assert.equal(stored.length, 4);
  });

  it('still refuses a NUL byte from PayFast’s range with 400', async () => {
    stored.length = 0;
    assert.equal((await notify('198.51.100.8', new TextEncoder().encode('a=b\u0000c'))).status, 400);
    assert.deepEqual(stored, []);
  });
});

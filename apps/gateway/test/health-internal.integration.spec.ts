import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { InProcessGateway } from './support/in-process-gateway.js';
import { ServicesBehind } from './support/services-behind.js';

/** The gateway in the test's process, with orders in process behind it on its NATS server and no other service. */
describe('health: up or down on the public port, the checks on the internal port only', () => {
  let system: InProcessGateway;
  let services: ServicesBehind;

  beforeAll(async () => {
    system = await InProcessGateway.start();
    services = await ServicesBehind.start(system, ['orders']);
  });
  afterAll(async () => {
    await services?.stop();
    await system?.stop();
  });

  it('answers /api/health and the public probes with up or down, naming no dependency', async () => {
    for (const path of ['/api/health', '/health', '/health/live']) {
      const res = await fetch(`${system.gatewayUrl}${path}`);
      const body = (await res.json()) as Record<string, unknown>;
      assert.deepEqual(Object.keys(body), ['status'], `${path}: ${JSON.stringify(body)}`);
      assert.match(String(body['status']), /^(up|down)$/);
    }
    const system503 = await fetch(`${system.gatewayUrl}/api/health`);
    assert.equal(system503.status, 503, 'identity and the others are not started');
    assert.equal((await fetch(`${system.gatewayUrl}/health`)).status, 200, 'the gateway itself is ready');
  });

  it('gives the detailed reports on the internal listener, and not on the public port', async () => {
    const ready = await fetch(`${system.gatewayHealthUrl}/health`);
    assert.equal(ready.status, 200);
    const report = (await ready.json()) as { checks: Record<string, { status: string }> };
    assert.equal(report.checks['nats']?.status, 'up');
    assert.equal(report.checks['redis']?.status, 'up');
    const whole = await fetch(`${system.gatewayHealthUrl}/health/system`);
    assert.equal(whole.status, 503);
    const detailed = (await whole.json()) as { checks: Record<string, { status: string; error?: string }> };
    assert.equal(detailed.checks['orders']?.status, 'up');
    assert.equal(detailed.checks['identity']?.status, 'down');
    assert.equal((await fetch(`${system.gatewayHealthUrl}/health/live`)).status, 200);
    assert.equal((await fetch(`${system.gatewayHealthUrl}/api/profile`)).status, 404, 'the internal port serves health only');
    const publicSystem = await fetch(`${system.gatewayUrl}/health/system`);
    assert.doesNotMatch(await publicSystem.text(), /"checks"/);
  });
});

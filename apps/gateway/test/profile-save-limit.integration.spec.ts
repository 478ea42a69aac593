import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { registerOwner, withinOneWindow } from '@digicard/testing';
import { InProcessGateway } from './support/in-process-gateway.js';
import { ServicesBehind } from './support/services-behind.js';

// Issue 28, item 8: every profile save may queue a print-proof render of each of the owner's orders awaiting approval
// (one job per order, merged, skipped when the card did not change: apps/orders/test/proof-queue.integration.spec.ts),
// and saves were unlimited. The editor's Save is limited per account (RATE_LIMIT_PROFILE_SAVE_ACCOUNT): here 3 in ten
// minutes, the fourth 429 with Retry-After, another account counted on its own.

describe('profile saves, limited per account', () => {
  let system: InProcessGateway;
  let services: ServicesBehind;

  beforeAll(async () => {
    system = await InProcessGateway.start({ RATE_LIMIT_PROFILE_SAVE_ACCOUNT: '3/600' });
    services = await ServicesBehind.start(system, ['identity', 'profiles']);
  }, 120_000);
  afterAll(async () => {
    await services?.stop();
    await system?.stop();
  });

  it('refuses the fourth save of one account with 429, and saves another account’s', async () => {
    await withinOneWindow(600);
    const owner = await registerOwner(
      system,
      { username: 'busy-saver', firstName: 'Busy', lastName: 'Saver', email: 'saver@example.co.za' },
      { verify: false },
    );
    const other = await registerOwner(
      system,
      { username: 'calm-saver', firstName: 'Calm', lastName: 'Saver', email: 'calm@example.co.za' },
      { verify: false },
    );
    const document = (await owner.client.request('/api/profile')).body.document as Record<string, unknown>;
    for (let i = 1; i <= 3; i += 1) {
      const saved = await owner.client.request('/api/profile', { method: 'PUT', body: { document: { ...document, title: `Title ${i}` } } });
      assert.equal(saved.status, 200, `save ${i}: ${JSON.stringify(saved.body)}`);
    }
    const over = await owner.client.request('/api/profile', { method: 'PUT', body: { document: { ...document, title: 'Title 4' } } });
    assert.equal(over.status, 429);
    assert.ok(Number(over.headers.get('retry-after')) > 0);
    assert.equal((await owner.client.request('/api/profile')).body.document.title, 'Title 3', 'the refused save changed nothing');
    const theirs = (await other.client.request('/api/profile')).body.document as Record<string, unknown>;
    assert.equal((await other.client.request('/api/profile', { method: 'PUT', body: { document: theirs } })).status, 200);
  });
});

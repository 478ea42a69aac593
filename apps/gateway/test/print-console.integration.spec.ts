import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { HttpRoutes } from '@digicard/contracts';
import { registerOwner, type TestOwner } from '@digicard/testing';
import { InProcessGateway } from './support/in-process-gateway.js';
import { ServicesBehind } from './support/services-behind.js';

// The print console's API and the owner's print actions through the gateway, with identity, profiles and orders
// running (all in the test's process, the services on the gateway's NATS server, each with its own database). A print (or team member) account is made the way the staff command will make one: its role set in
// identity's table (never through sign-up), then signed in again so the session carries it.

/** Signs the account in again after its role changed in identity's table. */
async function withRole(system: InProcessGateway, services: ServicesBehind, who: TestOwner, role: string): Promise<TestOwner> {
  await services.get('identity').sql('UPDATE identity.accounts SET role = $1 WHERE id = $2', [role, who.accountId]);
  const client = system.client();
  const res = await client.request('/api/session', { body: { email: who.email, password: who.password } });
  assert.equal(res.status, 200, `sign-in as ${role}`);
  return { ...who, client };
}

const fill = (path: string, params: Record<string, string>): string => path.replace(/:(\w+)/g, (_, name: string) => params[name] ?? name);

describe('the print console through the gateway', () => {
  let system: InProcessGateway;
  let services: ServicesBehind;
  let owner: TestOwner;
  let member: TestOwner;
  let printer: TestOwner;
  let orderId: string;

  beforeAll(async () => {
    system = await InProcessGateway.start();
    // Teams too: a team member's password sign-in asks it whether the team requires its company account.
    services = await ServicesBehind.start(system, ['identity', 'profiles', 'orders', 'teams']);
    owner = await registerOwner(
      system,
      { username: 'ayanda', firstName: 'Ayanda', lastName: 'Dlamini', email: 'ayanda@example.co.za' },
      { verify: false },
    );
    member = await withRole(
      system,
      services,
      await registerOwner(
        system,
        { username: 'sipho', firstName: 'Sipho', lastName: 'Zulu', email: 'sipho@example.co.za' },
        { verify: false },
      ),
      'teamMember',
    );
    printer = await withRole(
      system,
      services,
      await registerOwner(
        system,
        { username: 'printer', firstName: 'Pat', lastName: 'Printer', email: 'print@example.co.za' },
        { verify: false },
      ),
      'print',
    );
    // Payments does not run here: the order stays awaiting payment, which is enough to try moves on it.
    await owner.client.request('/api/orders', { body: { items: [{ id: 'pvc-card', quantity: 1 }] } });
    orderId = (await owner.client.request('/api/orders')).body.orders[0].id;
  });
  afterAll(async () => {
    await services?.stop();
    await system?.stop();
  });

  const printRoutes = Object.values(HttpRoutes).filter((r) => Array.isArray(r.access) && r.access.includes('print'));

  it('refuses every print console endpoint signed out (401), to an owner and to a team member (403)', async () => {
    assert.ok(printRoutes.length >= 8, 'the console has its routes');
    const visitor = system.client();
    for (const route of printRoutes) {
      const path = fill(route.path, { orderId, serial: 'K7M3Q9ZT' });
      const body = 'body' in route && route.body ? (route.method === 'put' ? { nfcUid: '04A23B1C' } : { to: 'printing' }) : undefined;
      const init = { method: route.method.toUpperCase(), ...(body ? { body } : {}) };
      assert.equal((await visitor.request(path, init)).status, 401, `${route.method} ${route.path} signed out`);
      assert.equal((await owner.client.request(path, init)).status, 403, `${route.method} ${route.path} as an owner`);
      assert.equal((await member.client.request(path, init)).status, 403, `${route.method} ${route.path} as a team member`);
    }
    // Nothing moved.
    assert.equal((await owner.client.request(`/api/orders/${orderId}`)).body.status, 'awaiting-payment');
  });

  it('refuses the staff console’s failed proofs signed out (401), to an owner, a team member and the print team (403)', async () => {
    const staffProofRoutes = [HttpRoutes.staffFailedProofs, HttpRoutes.staffRerenderProof];
    const visitor = system.client();
    for (const route of staffProofRoutes) {
      const path = fill(route.path, { orderId });
      const init = { method: route.method.toUpperCase() };
      assert.equal((await visitor.request(path, init)).status, 401, `${route.method} ${route.path} signed out`);
      for (const [who, name] of [
        [owner, 'an owner'],
        [member, 'a team member'],
        [printer, 'the print team'],
      ] as const) {
        assert.equal((await who.client.request(path, init)).status, 403, `${route.method} ${route.path} as ${name}`);
      }
    }
  });

  it('lets the print team read the queue; a move the order cannot make is 409 with its code, bad input 400, unknown 404', async () => {
    const queue = await printer.client.request('/api/print/orders');
    assert.equal(queue.status, 200);
    assert.deepEqual(queue.body.orders, [], 'an unpaid order is not in the queue');
    const refused = await printer.client.request(`/api/print/orders/${orderId}/moves`, { body: { to: 'printing' } });
    assert.equal(refused.status, 409);
    assert.equal(refused.body.code, 'ORDER_MOVE_NOT_ALLOWED');
    assert.equal(refused.body.message, 'An order that is awaiting payment cannot become printing.');
    const bad = await printer.client.request(`/api/print/orders/${orderId}/moves`, { body: { to: 'shipped' } });
    assert.equal(bad.status, 400);
    assert.deepEqual(Object.keys(bad.body.fieldErrors).sort(), ['courier', 'trackingNumber']);
    assert.equal((await printer.client.request(`/api/print/orders/${orderId}/moves`, { body: { to: 'lost' } })).status, 400);
    assert.equal((await printer.client.request(`/api/print/orders/${randomUUID()}/moves`, { body: { to: 'printing' } })).status, 404);
    assert.equal((await printer.client.request(`/api/print/orders/${orderId}`)).status, 404, 'unpaid orders are not the print team’s');
    assert.equal((await printer.client.request('/api/print/orders/not-a-uuid')).status, 404);
  });

  it('the owner’s print actions: 409 before a proof, 400 without a note, 404 for someone else', async () => {
    const approve = await owner.client.request(`/api/orders/${orderId}/approval`, { method: 'POST' });
    assert.equal(approve.status, 409);
    assert.equal(approve.body.code, 'ORDER_MOVE_NOT_ALLOWED');
    const noNote = await owner.client.request(`/api/orders/${orderId}/changes`, { body: { note: ' ' } });
    assert.equal(noNote.status, 400);
    assert.deepEqual(noNote.body.fieldErrors, { note: ['Please say what should change.'] });
    assert.equal((await member.client.request(`/api/orders/${orderId}/approval`, { method: 'POST' })).status, 404);
    assert.equal((await owner.client.request(`/api/orders/${orderId}/proof.pdf`)).status, 404);
    assert.equal((await system.client().request(`/api/orders/${orderId}/proof.pdf`)).status, 401);
    assert.deepEqual(
      (await owner.client.request('/api/order-details')).body.orders.map((o: { id: string }) => o.id),
      [orderId],
    );
    assert.deepEqual((await member.client.request('/api/order-details')).body, { orders: [], nextCursor: null });
    assert.equal((await owner.client.request('/api/cards/K7M3Q9ZT', { method: 'PUT', body: { disabled: true } })).status, 404);
    assert.equal((await owner.client.request('/api/cards/K7M3Q9ZT', { method: 'PUT', body: {} })).status, 400);
  });

  it('/c/{serial}: 404 for a serial nobody has or that cannot be one', async () => {
    const res = await fetch(`${system.gatewayUrl}/c/K7M3Q9ZT`, { redirect: 'manual' });
    assert.equal(res.status, 404);
    assert.equal((await fetch(`${system.gatewayUrl}/c/lower`, { redirect: 'manual' })).status, 404);
  });
});

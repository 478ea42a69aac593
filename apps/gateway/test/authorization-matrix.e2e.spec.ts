import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { HttpRoutes, type HttpRoute } from '@digicard/contracts';
import {
  Callers,
  MatrixSystemOptions,
  TestSystem,
  prepareMatrix,
  routesWithoutRules,
  runMatrix,
  type MatrixFixture,
} from '@digicard/testing';

/** tools/security's authorization matrix, run against the real system: every route of HttpRoutes, every caller. */
describe('authorization matrix: every API route as owner, another owner, team member, print, staff and signed out', () => {
  let system: TestSystem;
  let fixture: MatrixFixture;

  beforeAll(async () => {
    system = await TestSystem.shared({ apps: [...MatrixSystemOptions.apps], env: MatrixSystemOptions.env });
    fixture = await prepareMatrix(system);
    // Eight apps (each given 90 s to be ready) and the fixture's accounts, beside the browser lane.
  }, 240_000);
  afterAll(() => system?.stop());

  it('fails a route whose path parameter has no rule, naming it', () => {
    const added: Record<string, HttpRoute> = {
      ...HttpRoutes,
      getTeam: {
        method: 'get',
        path: '/api/teams/:teamId',
        operationId: 'getTeam',
        summary: 'x',
        tag: 'x',
        access: ['print', 'staff'],
        responses: { 200: { description: 'x' } },
      },
    };
    assert.deepEqual(routesWithoutRules(HttpRoutes), []);
    assert.match(routesWithoutRules(added).join('\n'), /getTeam .* no matrix rule for :teamId/);
  });

  it('gives each caller what the route table declares, and nobody the owner’s data', async () => {
    const rows = await runMatrix(fixture);
    assert.equal(rows.length, Object.keys(HttpRoutes).length, 'every route is in the matrix');
    for (const row of rows) assert.equal(row.cells.length, Callers.length);
    const problems = rows.flatMap((r) => r.cells.filter((c) => !c.ok).map((c) => `${r.method} ${r.path} as ${c.caller}: ${c.problem}`));
    assert.deepEqual(problems, []);
    // The matrix is not vacuous: the owner reads their order, others are refused it, and signed-out callers get 401.
    const getOrder = rows.find((r) => r.route === 'getOrder');
    assert.equal(getOrder?.cells.find((c) => c.caller === 'owner')?.status, 200);
    assert.equal(getOrder?.cells.find((c) => c.caller === 'otherOwner')?.status, 404);
    assert.equal(rows.find((r) => r.route === 'listLeads')?.cells.find((c) => c.caller === 'signedOut')?.status, 401);
    // Staff revoke (issue 28): only staff get past access (400 for the empty body); the print console is print's only.
    const revoke = rows.find((r) => r.route === 'staffRevokeRole');
    assert.equal(revoke?.cells.find((c) => c.caller === 'staff')?.status, 400);
    for (const caller of ['owner', 'teamMember', 'print'] as const)
      assert.equal(revoke?.cells.find((c) => c.caller === caller)?.status, 403);
    assert.equal(rows.find((r) => r.route === 'printQueue')?.cells.find((c) => c.caller === 'print')?.status, 200);
    assert.equal(rows.find((r) => r.route === 'printQueue')?.cells.find((c) => c.caller === 'staff')?.status, 403);
  }, 300_000);

  it('a print role staff take away ends at once: the signed-in print account is signed out, the print console refused', async () => {
    const print = fixture.clients.print;
    assert.equal((await print.request('/api/print/orders')).status, 200);
    const session = (await print.request('/api/session')).body as { user: { id: string } };
    const revoked = await fixture.clients.staff.request(`/api/staff/accounts/${session.user.id}/role-revocation`, {
      method: 'POST',
      body: { role: 'print' },
    });
    assert.equal(revoked.status, 200, JSON.stringify(revoked.body));
    assert.equal((revoked.body as { account: { role: string } }).account.role, 'user');
    // Its sessions end with the revocation (the role sync would only have demoted them a moment later).
    assert.equal((await print.request('/api/print/orders')).status, 401);
    assert.equal((await print.request('/api/session')).body.user, null);
    // Staff cannot take away their own staff role.
    const staffSession = (await fixture.clients.staff.request('/api/session')).body as { user: { id: string } };
    const own = await fixture.clients.staff.request(`/api/staff/accounts/${staffSession.user.id}/role-revocation`, {
      method: 'POST',
      body: { role: 'staff' },
    });
    assert.equal(own.status, 409);
  }, 60_000);
});

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
    system = await TestSystem.start({ apps: [...MatrixSystemOptions.apps], env: MatrixSystemOptions.env });
    fixture = await prepareMatrix(system);
  }, 120_000);
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
  }, 300_000);
});

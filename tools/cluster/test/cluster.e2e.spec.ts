// Issue 29: the short version of `npm run cluster` (tools/cluster), in the suite. The production layout on this
// machine (3 NATS servers with every stream at 3 replicas, Redis with a replica and Sentinel, PostgreSQL with a
// streaming replica behind HAProxy, two replicas of every app, two gateways behind HAProxy) carries a light load of
// leads, registrations, page views and checkout payments while one fault of each kind happens in turn. The same
// targets as the long run (tools/cluster/src/faults.mjs `verdict`): nothing accepted lost or sent twice, no 500,
// no failed request in the rolling restart, recovery after the NATS server loss and the Redis failover (15 s here).
// Numbers at volume are the long run's, in docs/reliability.md.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { Cluster } from '../src/cluster.mjs';
import { FAULTS, runFaults, verdict } from '../src/faults.mjs';
import { Load } from '../src/load.mjs';

/**
 * The apps' warnings and errors (their JSON log lines) in time order, the first and the last 30, and the load
 * balancer's changes of a gateway's state, for the message of a failed assertion (a failure in the warm-up shows in
 * the first lines, one in a late fault in the last).
 */
function warnings(dir: string): string {
  const logs = join(dir, 'logs');
  const lines: Array<{ at: string; text: string }> = [];
  const balancer: string[] = [];
  for (const file of readdirSync(logs)) {
    const text = readFileSync(join(logs, file), 'utf8');
    if (file.startsWith('haproxy-lb'))
      balancer.push(...text.split('\n').filter((l) => /gateways\/\S+ is (DOWN|UP)|no server available/i.test(l)));
    if (!/^(gateway|identity|profiles|teams|orders|payments|notifications)/.test(file)) continue;
    for (const line of text.split('\n'))
      if (/"level":"(warn|error|fatal)"/.test(line))
        lines.push({ at: /"time":"([^"]+)"/.exec(line)?.[1] ?? '', text: `${file}: ${line.slice(0, 400)}` });
  }
  lines.sort((a, b) => a.at.localeCompare(b.at));
  const shown = lines.length > 60 ? [...lines.slice(0, 30), { text: `... ${lines.length - 60} more ...` }, ...lines.slice(-30)] : lines;
  return [...balancer.map((l) => `haproxy-lb: ${l}`), ...shown.map((l) => l.text)].join('\n');
}

describe('the production layout rides out one fault of each kind (npm run cluster, short)', () => {
  let cluster: Cluster;
  // Every process's log stays in this directory when a test fails (it is named in the output).
  const dir = mkdtempSync(join(tmpdir(), 'digicard-cluster-test-'));
  let passed = false;

  beforeAll(async () => {
    cluster = new Cluster({ dir });
    await cluster.start();
  }, 240_000);
  afterAll(async () => {
    await cluster?.stop();
    if (passed) rmSync(dir, { recursive: true, force: true });
    else console.log(`the cluster's logs are kept in ${dir}/logs`);
  });

  it('loses nothing accepted, sends nothing twice, never answers 500, and recovers in time', async () => {
    const load = new Load(cluster, { leads: 10, registrations: 0.5, views: 5, payments: 0.5 });
    await load.prepare(2);
    const result = await runFaults(cluster, load, { settleMs: 4000, warmUpMs: 5000, drainTimeoutMs: 120_000 });
    const table = result.phases.map(
      (p) =>
        `${p.phase}: ${p.answered}/${p.sent} answered, failures ${JSON.stringify(p.failures)}, recovery ${p.recoverySeconds} s (last failed request sent at ${p.lastFailedSentSeconds} s), ms ${JSON.stringify(p.latencyMs)}`,
    );
    // Recovery within 15 s here, 10 s in the long run (`npm run cluster`): the whole layout (a dozen app processes, 3
    // NATS servers, Redis with Sentinels, two PostgreSQL) shares the suite's 2 cores, and the Redis failover took
    // 10.1 and 10.5 s in 2 of 9 runs (2.2-3.4 s in the others; docs/reliability.md).
    const { problems } = verdict(result, { recoveryTargetSeconds: 15 });
    assert.deepEqual(problems, [], `${table.join('\n')}\n${warnings(cluster.dir)}`);
    // Each fault happened under load: requests of every kind were sent in it and answered.
    for (const fault of Object.values(FAULTS)) {
      const phase = result.phases.find((p) => p.phase === fault);
      assert.ok(phase, `no phase "${fault}"`);
      assert.ok(phase.answered > 0, `${fault}: nothing answered\n${table.join('\n')}`);
    }
    const sent = (kind: 'lead' | 'registration' | 'view' | 'payment') => result.phases.reduce((n, p) => n + (p.byKind[kind] ?? 0), 0);
    assert.ok(sent('lead') >= 100, `only ${sent('lead')} leads sent`);
    assert.ok(sent('registration') > 0 && sent('payment') > 0 && sent('view') > 0, table.join('\n'));
    assert.ok(result.drainedAfterSeconds !== null, 'the accepted work did not drain');
    passed = true;
  });
});

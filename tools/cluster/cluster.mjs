#!/usr/bin/env node
// The system as production runs it, on this machine (see src/cluster.mjs), and the fault run: while leads,
// registrations, page views and checkout payments flow, it kills one NATS server, fails Redis over, kills the
// PostgreSQL primary and promotes the replica, kills one replica of each app, then rolls every app. It prints per
// fault: requests answered, failures by status, accepted-but-lost, duplicates and time to recover.
//
//   npx nx run-many -t build && npm run cluster -- [--leads 200] [--registrations 2] [--views 20] [--payments 1]
//       [--settle 10] [--json out.json] [--keep]      (--serve: start it and wait; Ctrl-C stops it)
import { parseArgs } from 'node:util';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Cluster, REPLICATED } from './src/cluster.mjs';
import { Load } from './src/load.mjs';
import { runFaults, verdict } from './src/faults.mjs';

const { values: args } = parseArgs({
  options: {
    leads: { type: 'string', default: '200' },
    registrations: { type: 'string', default: '2' },
    views: { type: 'string', default: '20' },
    payments: { type: 'string', default: '1' },
    settle: { type: 'string', default: '10' },
    json: { type: 'string' },
    keep: { type: 'boolean', default: false },
    serve: { type: 'boolean', default: false },
  },
});

const log = (msg, extra) =>
  process.stdout.write(`${new Date().toISOString().slice(11, 23)} ${msg}${extra ? ` ${JSON.stringify(extra)}` : ''}\n`);

// --keep: the directory (every process's log under logs/) stays after the run.
const cluster = new Cluster(args.keep ? { dir: mkdtempSync(join(tmpdir(), 'digicard-cluster-')) } : {});
let ok = false;
const onSignal = () => void cluster.stop().finally(() => process.exit(130));
process.once('SIGINT', onSignal);
process.once('SIGTERM', onSignal);
try {
  log(`starting the cluster in ${cluster.dir}`);
  const t0 = Date.now();
  await cluster.start();
  log('cluster up', {
    seconds: Math.round((Date.now() - t0) / 100) / 10,
    loadBalancer: cluster.url,
    postgres: cluster.postgresUrl,
    redisSentinels: cluster.redisSentinels,
    nats: cluster.nats.map((n) => `127.0.0.1:${n.port}`),
    replicas: Object.fromEntries(REPLICATED.map((a) => [a, cluster.running(a).length])),
  });
  if (args.serve) {
    log('serving; Ctrl-C stops it');
    await new Promise(() => undefined);
  }
  const load = new Load(cluster, {
    leads: Number(args.leads),
    registrations: Number(args.registrations),
    views: Number(args.views),
    payments: Number(args.payments),
  });
  await load.prepare();
  const result = await runFaults(cluster, load, { settleMs: Number(args.settle) * 1000, log });
  process.stdout.write(`\n${JSON.stringify(result, null, 2)}\n`);
  const v = verdict(result);
  for (const line of v.problems) log(`target missed: ${line}`);
  log(v.ok ? 'targets met' : 'targets NOT met');
  if (args.json) writeFileSync(args.json, JSON.stringify({ ...result, verdict: v }, null, 2));
  ok = v.ok;
} catch (error) {
  log('cluster run failed', { error: error.stack ?? String(error) });
} finally {
  await cluster.stop().catch((error) => log('stopping failed', { error: String(error) }));
  if (args.keep) log(`kept ${cluster.dir} (logs/ has every process's output)`);
}
process.exit(ok ? 0 : 1);

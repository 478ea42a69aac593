// The fault run on a started cluster with its load: each fault in turn, with time to settle between them, then the
// accounting. Shared by the command (tools/cluster/cluster.mjs) and the short system test.
import { REPLICATED } from './cluster.mjs';

/** The email worker's jobs at once (apps/notifications EMAIL_CONCURRENCY, its default). */
const EMAIL_CONCURRENCY = 5;

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export const FAULTS = {
  nats: 'one NATS server killed',
  redis: 'Redis primary killed, Sentinel failover',
  postgres: 'PostgreSQL primary killed, replica promoted',
  replicas: 'one replica of each app killed',
  rolling: 'rolling restart of every app',
};

/**
 * @param {import('./cluster.mjs').Cluster} cluster
 * @param {import('./load.mjs').Load} load
 * @param {{ settleMs?: number, warmUpMs?: number, log?: (msg: string, extra?: object) => void, drainTimeoutMs?: number }} options
 */
export async function runFaults(cluster, load, options = {}) {
  const settle = options.settleMs ?? 10_000;
  const log = options.log ?? (() => undefined);
  load.start();
  // The warm-up: load with no fault, where nothing may fail. A request still waiting for its answer when the first
  // fault begins is the fault's (Load.account): in 3 of 7 short runs a lead sent in the last moment of the warm-up to
  // an orders replica on the NATS server about to be killed got no answer (503 after the gateway's 5 s), which was
  // first read as a slow start (2026-11-29, docs/reliability.md).
  await sleep(options.warmUpMs ?? 8000);

  load.mark(FAULTS.nats);
  log(`fault: ${FAULTS.nats}`);
  const node = await cluster.killNatsServer(0);
  await sleep(settle);
  const restartAt = Date.now();
  await cluster.restartNatsServer(node);
  load.note({ serverDownSeconds: Math.round((Date.now() - load.phases.at(-1).startedAt) / 1000), rejoinedAfterMs: Date.now() - restartAt });

  load.mark(FAULTS.redis);
  log(`fault: ${FAULTS.redis}`);
  load.note({ sentinelPromotedAfterMs: await cluster.failRedisOver() });
  await sleep(settle);

  load.mark(FAULTS.postgres);
  log(`fault: ${FAULTS.postgres}`);
  const killedAt = Date.now();
  await cluster.killPostgresPrimary();
  // The operator notices the primary gone (CloudNativePG: a failed liveness probe, seconds) and promotes.
  await sleep(1000);
  await cluster.promotePostgresReplica();
  load.note({ promotedAfterMs: Date.now() - killedAt });
  await sleep(settle);

  load.mark(FAULTS.replicas);
  log(`fault: ${FAULTS.replicas}`);
  const killed = [];
  for (const app of REPLICATED) {
    const [victim] = cluster.running(app);
    if (victim) {
      await cluster.killInstance(victim);
      killed.push(victim.id);
    }
  }
  // The orchestrator replaces them.
  await sleep(2000);
  for (const app of REPLICATED) while (cluster.running(app).length < 2) await cluster.startInstance(app);
  load.note({ killed, replacedAfterMs: Date.now() - load.phases.at(-1).startedAt });
  await sleep(settle / 2);

  load.mark(FAULTS.rolling);
  log(`fault: ${FAULTS.rolling}`);
  await cluster.rollingRestart((msg) => log(`  ${msg}`));
  load.note({ tookMs: Date.now() - load.phases.at(-1).startedAt });

  load.mark('after');
  await sleep(Math.min(settle, 5000));
  await load.stop();
  log('load stopped; accounting', { requests: load.samples.length });
  const accounting = await load.account(options.drainTimeoutMs ?? 180_000);
  const streams = await cluster.streamReplicas();
  return { rates: load.rates, ...accounting, streams };
}

/**
 * The targets of issue 29 applied to a result. `recoveryTargetSeconds`: 10 as the issue sets it; the short run in the
 * suite allows more (see its file).
 */
export function verdict(result, { recoveryTargetSeconds = 10 } = {}) {
  const problems = [];
  for (const p of result.phases) {
    const lost = Object.entries(p.lost).filter(([, n]) => n > 0);
    const dup = Object.entries(p.duplicates).filter(([, n]) => n > 0);
    if (lost.length) problems.push(`${p.phase}: accepted but lost ${JSON.stringify(Object.fromEntries(lost))}`);
    if (dup.length) problems.push(`${p.phase}: duplicated ${JSON.stringify(Object.fromEntries(dup))}`);
    if (p.http500 > 0) problems.push(`${p.phase}: ${p.http500} answers were 500`);
    if ((p.phase === FAULTS.rolling || p.phase === 'warm-up' || p.phase === 'after') && Object.keys(p.failures).length > 0)
      problems.push(`${p.phase}: failed requests ${JSON.stringify(p.failures)}`);
    if ((p.phase === FAULTS.nats || p.phase === FAULTS.redis) && p.recoverySeconds > recoveryTargetSeconds)
      problems.push(`${p.phase}: recovered after ${p.recoverySeconds} s (target ${recoveryTargetSeconds} s)`);
  }
  // The same message again (same Message-ID) is what SMTP allows when a worker dies between the relay's reply and
  // its record: at most one per email it was sending, EMAIL_CONCURRENCY (5) at a time, per notifications process
  // killed. More than that, or any without such a kill, is a defect.
  const killedWorkers = result.phases.flatMap((p) => p.note?.killed ?? []).filter((id) => String(id).startsWith('notifications')).length;
  const resent = result.phases.reduce(
    (n, p) => n + (p.resentSameMessageId?.leadEmails ?? 0) + (p.resentSameMessageId?.verificationEmails ?? 0),
    0,
  );
  if (resent > killedWorkers * EMAIL_CONCURRENCY)
    problems.push(`${resent} emails delivered again with the same Message-ID, ${killedWorkers} email worker(s) killed`);
  for (const [name, s] of Object.entries(result.streams ?? {}))
    if (s.replicas !== 3) problems.push(`stream ${name} has ${s.replicas} replicas, not 3`);
  if (result.drainedAfterSeconds === null) problems.push('the accepted work did not drain in time');
  return { ok: problems.length === 0, problems };
}

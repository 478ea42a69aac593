// What view counting costs the public page: one system (identity, profiles, notifications), whose gateway is started
// afresh for every run, with VIEW_COUNTING=on or VIEW_COUNTING=off in turn, and loaded by wrk (Debian's package) with
// a browser's User-Agent and `?src=qr`, so that every request of the "on" runs is counted (robots are not). A fresh
// process per run, on the same services and data, means neither side keeps one process's luck (its heap layout, its
// JIT's choices); the gateway is pinned to CPU 0 and wrk to CPU 1 (taskset), so that neither wanders between the
// cores; the order alternates each round and the median of each side is compared. The gateway's CPU time per request
// (all its threads, from /proc) is reported beside the throughput: it shows what counting costs without the load.
// Each "on" run's views are read back from the database and checked against what wrk was served.
// Writes its section of docs/benchmarks.md (between its markers; the rest of the file is left as it is).
// Run: `npx nx run-many -t build && node tools/bench/view-counting.mjs` (DURATION=10 WARMUP=5 CONNECTIONS=32 ROUNDS=9).
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { availableParallelism } from 'node:os';
import { ProfileDefaults } from '../../libs/contracts/dist/src/index.js';
import { REPO_ROOT, TestSystem, registerOwner, setMembership } from '../../libs/testing/dist/src/index.js';

const DURATION = Number(process.env.DURATION ?? 10);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 32);
const ROUNDS = Number(process.env.ROUNDS ?? 9);
const WARMUP = Number(process.env.WARMUP ?? 5);
const BROWSER = 'Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36';
const loadBefore = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
const START = '<!-- view-counting: begin (tools/bench/view-counting.mjs) -->';
const END = '<!-- view-counting: end -->';

try {
  execFileSync('wrk', ['--version'], { stdio: 'ignore' });
} catch (error) {
  if (error.code === 'ENOENT') throw new Error('wrk is missing: apt-get install -y wrk');
}
try {
  execFileSync('taskset', ['--version'], { stdio: 'ignore' });
} catch {
  throw new Error('taskset is missing: apt-get install -y util-linux');
}
if (availableParallelism() < 2) throw new Error('this benchmark needs two CPUs: one for the gateway, one for wrk');

async function wrk(url, seconds = DURATION) {
  const args = [
    '-t1',
    `-c${CONNECTIONS}`,
    `-d${seconds}s`,
    '--latency',
    '-H',
    'Accept-Encoding: gzip',
    '-H',
    `User-Agent: ${BROWSER}`,
    url,
  ];
  const { stdout: out } = await promisify(execFile)('taskset', ['-c', '1', 'wrk', ...args], { encoding: 'utf8' });
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1]);
  const requests = Number(/(\d+) requests in/.exec(out)?.[1]);
  const pct = (p) => /(\d+\.\d+)(us|ms|s)/.exec(new RegExp(`^\\s+${p}%\\s+(\\S+)`, 'm').exec(out)?.[1] ?? '');
  const ms = (m) => (m ? Number(m[1]) * { us: 0.001, ms: 1, s: 1000 }[m[2]] : NaN);
  const non2xx = Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0);
  return { rps, requests, p50: ms(pct(50)), p99: ms(pct(99)), non2xx };
}

/** A process's CPU time so far (user and system, all its threads) in ms, from /proc/{pid}/stat. */
const TICKS = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }));
const cpuOf = (pid) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS;
};

const system = await TestSystem.start({
  apps: ['mail-catcher', 'identity', 'profiles', 'notifications', 'gateway'],
  env: { gateway: { LOG_LEVEL: 'info' } },
});
try {
  const owner = await registerOwner(system, { username: 'thabo', firstName: 'Thabo', lastName: 'Mokoena', email: 'thabo@example.co.za' });
  await setMembership(system, 'thabo', 'DigiPlatinum');
  const document = {
    ...ProfileDefaults,
    title: 'Sales Director',
    businessName: 'Mokoena Solar',
    tel: '082 123 4567',
    profileBio: 'Twenty years of solar installations across the Karoo and the Garden Route.',
    websiteLinks: [{ buttonName: 'Our website', url: 'https://mokoena.co.za' }],
    socialLinks: [{ platform: 'linkedin', url: 'https://www.linkedin.com/in/thabo' }],
  };
  const saved = await owner.client.request('/api/profile', { method: 'PUT', body: { document } });
  if (saved.status !== 200) throw new Error(`could not save the sample profile: ${JSON.stringify(saved.body)}`);
  const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

  /** @returns {Promise<number>} */
  const views = async () =>
    Number((await system.sql("SELECT coalesce(sum(count), 0)::int AS n FROM profiles.analytics_daily WHERE metric = 'view'"))[0].n);
  const settle = () => new Promise((r) => setTimeout(r, 1500)); // a flush interval and the write behind it

  /** One run: a fresh gateway with counting on or off, a warm-up (JIT, page cache), the measured run, and the views it recorded. */
  async function run(counting) {
    // wrk is one address: every view is counted (the per-address limit is what a real visitor meets).
    await system.startApp('gateway', { VIEW_COUNTING: counting, ANALYTICS_VIEWS_PER_ADDRESS_MINUTE: '100000' });
    // The gateway (every thread of it: V8's GC helpers and libuv's pool too) on CPU 0, wrk on CPU 1: left to the
    // scheduler, the two wander between the cores and the same build varies by several per cent from run to run.
    execFileSync('taskset', ['-a', '-p', '-c', '0', String(system.pidOf('gateway'))], { stdio: 'ignore' });
    try {
      await wrk(url, WARMUP);
      await settle();
      const before = await views();
      const cpuBefore = cpuOf(system.pidOf('gateway'));
      const result = await wrk(url);
      const cpu = cpuOf(system.pidOf('gateway')) - cpuBefore;
      await system.stopApp('gateway'); // SIGTERM: the gateway sends what it still holds before it exits
      await settle();
      return { ...result, counted: (await views()) - before, cpuPerRequest: (cpu / result.requests) * 1000 };
    } finally {
      await system.stopApp('gateway');
    }
  }

  const url = `${system.gatewayUrl}/thabo?src=qr`;
  await system.stopApp('gateway');
  const runs = { on: [], off: [] };
  for (let round = 0; round < ROUNDS; round++) {
    // Alternate which goes first, so neither side always follows the other's work.
    const order = round % 2 === 0 ? ['on', 'off'] : ['off', 'on'];
    for (const side of order) runs[side].push(await run(side));
  }
  const onRps = median(runs.on.map((r) => r.rps));
  const offRps = median(runs.off.map((r) => r.rps));
  const change = ((onRps - offRps) / offRps) * 100;
  const served = runs.on.reduce((s, r) => s + r.requests, 0);
  const counted = runs.on.reduce((s, r) => s + r.counted, 0);
  const offCounted = runs.off.reduce((s, r) => s + r.counted, 0);
  const miscounted = runs.on.filter((r) => r.counted < r.requests || r.counted > r.requests + CONNECTIONS);
  if (miscounted.length > 0 || offCounted !== 0) {
    throw new Error(`views not counted as served: on ${JSON.stringify(runs.on)}, off counted ${offCounted}`);
  }
  const row = (label, list) =>
    `| ${label} | ${list.map((r) => r.rps.toFixed(0)).join(', ')} | ${median(list.map((r) => r.rps)).toFixed(0)} | ${median(list.map((r) => r.p50)).toFixed(2)} ms | ${median(list.map((r) => r.p99)).toFixed(2)} ms | ${median(list.map((r) => r.cpuPerRequest)).toFixed(1)} µs | ${list.reduce((s, r) => s + r.non2xx, 0)} |`;
  const section = `${START}
## View counting on and off

Measured by \`node tools/bench/view-counting.mjs\` on ${new Date().toISOString().slice(0, 10)}: one system on this 2-core machine
(Node ${process.version}) whose gateway is started afresh for each run, with \`VIEW_COUNTING=on\` or \`off\` in turn, and loaded by
wrk (1 thread, ${CONNECTIONS} connections, ${DURATION} s a run after a ${WARMUP} s warm-up, ${ROUNDS} runs each, the order alternating
each round; the gateway with all its threads pinned to CPU 0 and wrk to CPU 1, the other services left to the
scheduler) with a browser's User-Agent on \`/thabo?src=qr\`, so every request of the "on" runs is a view to count. Counted
on the cached page's path, a view is a lookup of its browser (checked for robots once a flush interval) and a few map
updates (its count, its visitor); once a second the visitors are hashed with the day's salt (read from Redis once a day
per replica) and one batch goes to profiles over NATS.

| gateway | requests/s per run | median | p50 latency | p99 latency | gateway CPU per request | non-2xx |
|---|---|---|---|---|---|---|
${row('counting on', runs.on)}
${row('counting off', runs.off)}

Counting on / off: **${change >= 0 ? '+' : ''}${change.toFixed(1)} %** in median throughput (target: within 5 %). The "on" runs served
${served} requests that wrk counted in its measured runs, and recorded ${counted} views for them (each run checked: at least what wrk
counted and at most ${CONNECTIONS} more, the requests in flight when wrk stops, which the gateway still served and counted); the
"off" runs recorded ${offCounted}.
Gateway CPU per request is its user and system time (every thread) over the measured run, divided by the requests wrk
counted. Load average ${loadBefore} before the runs and ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')} after.
${END}
`;
  const path = join(REPO_ROOT, 'docs', 'benchmarks.md');
  const doc = readFileSync(path, 'utf8');
  const start = doc.indexOf(START);
  const end = doc.indexOf(END);
  writeFileSync(
    path,
    start >= 0 && end > start ? `${doc.slice(0, start)}${section}${doc.slice(end + END.length + 1)}` : `${doc.trimEnd()}\n\n${section}`,
  );
  process.stdout.write(section);
} finally {
  await system.stop();
}

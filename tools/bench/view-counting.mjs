// What view counting costs the public page: the same system twice, one gateway with VIEW_COUNTING=on and one with
// VIEW_COUNTING=off, loaded in turn by wrk (Debian's package) with a browser's User-Agent and `?src=qr`, so that
// every request of the "on" runs is counted (robots are not). Runs alternate on/off to spread the machine's noise
// evenly; the median of each side is compared. Checks afterwards that the "on" system counted the views it served.
// Writes its section of docs/benchmarks.md (between its markers; the rest of the file is left as it is).
// Run: `npx nx run-many -t build && node tools/bench/view-counting.mjs` (DURATION=10 CONNECTIONS=32 ROUNDS=3).
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ProfileDefaults } from '../../libs/contracts/dist/src/index.js';
import { REPO_ROOT, TestSystem, registerOwner, setMembership } from '../../libs/testing/dist/src/index.js';

const DURATION = Number(process.env.DURATION ?? 10);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 32);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const BROWSER = 'Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36';
const loadBefore = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
const START = '<!-- view-counting: begin (tools/bench/view-counting.mjs) -->';
const END = '<!-- view-counting: end -->';

try {
  execFileSync('wrk', ['--version'], { stdio: 'ignore' });
} catch (error) {
  if (error.code === 'ENOENT') throw new Error('wrk is missing: apt-get install -y wrk');
}

async function wrk(url) {
  const args = ['-t1', `-c${CONNECTIONS}`, `-d${DURATION}s`, '--latency', '-H', 'Accept-Encoding: gzip', '-H', `User-Agent: ${BROWSER}`, url];
  const { stdout: out } = await promisify(execFile)('wrk', args, { encoding: 'utf8' });
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1]);
  const requests = Number(/(\d+) requests in/.exec(out)?.[1]);
  const pct = (p) => /(\d+\.\d+)(us|ms|s)/.exec(new RegExp(`^\\s+${p}%\\s+(\\S+)`, 'm').exec(out)?.[1] ?? '');
  const ms = (m) => (m ? Number(m[1]) * { us: 0.001, ms: 1, s: 1000 }[m[2]] : NaN);
  const non2xx = Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0);
  return { rps, requests, p50: ms(pct(50)), p99: ms(pct(99)), non2xx };
}

async function systemWith(counting) {
  const system = await TestSystem.start({
    apps: ['mail-catcher', 'identity', 'profiles', 'notifications', 'gateway'],
    env: { gateway: { VIEW_COUNTING: counting, LOG_LEVEL: 'info' } },
  });
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
  return system;
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const on = await systemWith('on');
const off = await systemWith('off');
try {
  const onUrl = `${on.gatewayUrl}/thabo?src=qr`;
  const offUrl = `${off.gatewayUrl}/thabo?src=qr`;
  await wrk(onUrl); // warm-up
  await wrk(offUrl);
  await new Promise((r) => setTimeout(r, 3000)); // the warm-up's last batch lands before the count starts
  await on.sql('DELETE FROM profiles.analytics_daily');
  const runs = { on: [], off: [] };
  for (let round = 0; round < ROUNDS; round++) {
    // Alternate which goes first, so neither side always follows the other's work.
    const order = round % 2 === 0 ? ['on', 'off'] : ['off', 'on'];
    for (const side of order) runs[side].push(await wrk(side === 'on' ? onUrl : offUrl));
  }
  await new Promise((r) => setTimeout(r, 3000)); // the last batch
  const [{ n: counted }] = await on.sql("SELECT coalesce(sum(count), 0)::int AS n FROM profiles.analytics_daily WHERE metric = 'view' AND key = 'qr'");
  const served = runs.on.reduce((s, r) => s + r.requests, 0);
  const offCounted = (await off.sql('SELECT coalesce(sum(count), 0)::int AS n FROM profiles.analytics_daily'))[0].n;
  const onRps = median(runs.on.map((r) => r.rps));
  const offRps = median(runs.off.map((r) => r.rps));
  const change = ((onRps - offRps) / offRps) * 100;
  const row = (label, list) =>
    `| ${label} | ${list.map((r) => r.rps.toFixed(0)).join(', ')} | ${median(list.map((r) => r.rps)).toFixed(0)} | ${median(list.map((r) => r.p50)).toFixed(2)} ms | ${median(list.map((r) => r.p99)).toFixed(2)} ms | ${list.reduce((s, r) => s + r.non2xx, 0)} |`;
  const section = `${START}
## View counting on and off

Measured by \`node tools/bench/view-counting.mjs\` on ${new Date().toISOString().slice(0, 10)}: two complete systems side by side on
this 2-core machine (Node ${process.version}), one gateway with \`VIEW_COUNTING=on\` and one with \`off\`, loaded in turn by
wrk (1 thread, ${CONNECTIONS} connections, ${DURATION} s a run, ${ROUNDS} runs each, alternating, after a warm-up) with a browser's
User-Agent on \`/thabo?src=qr\`, so every request of the "on" runs is a view to count (the cached page path: each view is
a few in-memory map updates; one batch a second goes to profiles over NATS; the daily visitor salt is read from Redis
once a day per replica).

| gateway | requests/s per run | median | p50 latency | p99 latency | non-2xx |
|---|---|---|---|---|---|
${row('counting on', runs.on)}
${row('counting off', runs.off)}

Counting on / off: **${change >= 0 ? '+' : ''}${change.toFixed(1)} %** in median throughput (target: within 5 %). The "on" system served
${served} requests that wrk counted and recorded ${counted} QR views (wrk leaves out the up to ${CONNECTIONS} requests in flight when
each run stops, which the gateway still served and counted); the "off" system recorded ${offCounted}.
Load average ${loadBefore} before the runs and ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')} after: other work on the two cores
makes single runs vary, so the medians of alternating runs are what is compared.
${END}
`;
  const path = join(REPO_ROOT, 'docs', 'benchmarks.md');
  const doc = readFileSync(path, 'utf8');
  const start = doc.indexOf(START);
  const end = doc.indexOf(END);
  writeFileSync(path, start >= 0 && end > start ? `${doc.slice(0, start)}${section}${doc.slice(end + END.length + 1)}` : `${doc.trimEnd()}\n\n${section}`);
  process.stdout.write(section);
} finally {
  await on.stop();
  await off.stop();
}

// The abuse run (issue 28): starts the real system the way the tests do (every service, on spare ports), then floods
// what an anonymous visitor can reach and prints, for each part, the requests sent, the answers by HTTP status, and
// what the owning service stored against the configured limits:
//   1. ITN flood: well-formed but unsigned notifications, garbage (binary, NUL bytes) and bodies over 16 KB posted to
//      `POST /api/payfast/notify`, from PayFast's range (the simulator's 127.0.0.1 in tests) and from a stranger;
//      rows in `payments.itns`.
//   2. Analytics key flood: public page views `/{username}?card=…&src=…` with random serials (made-up ones and the
//      profile's own), random User-Agents, from many client addresses and from one; rows in `profiles.analytics_daily`
//      and `profiles.analytics_visitors` for that profile.
//   3. Lead flood against one DigiGold profile: lead and Exchange Contact submissions from many addresses and from one,
//      one typed-in address repeated; rows in `profiles.leads` and the emails that reached the mail catcher.
//   4. Parallel password guesses against one account, then the right password; how many reached identity's password
//      check (identity's `digicard_rpc_handled_total` for `identity.account.authenticate`).
// The gateway runs with TRUST_PROXY=1 (behind one proxy, as in the cluster), so X-Forwarded-For chooses the client
// address, and with the production defaults of every limit below (the test systems loosen some of them).
// Exits 1 when anything stored exceeds its limit, or any answer was 5xx.
// Run: `npx nx run-many -t build && npm run security:abuse` (ITNS=3000 VIEWS=3000 LEADS=300 GUESSES=40 to change).
import { randomBytes, randomUUID } from 'node:crypto';
import { TestSystem, registerOwner, setMembership } from '../../libs/testing/dist/src/index.js';

const ITNS = Number(process.env.ITNS ?? 3000);
const VIEWS = Number(process.env.VIEWS ?? 3000);
const LEADS = Number(process.env.LEADS ?? 300);
const GUESSES = Number(process.env.GUESSES ?? 40);

/** The limits, as `limit/windowSeconds`: the defaults of apps/gateway/src/config.ts and apps/profiles/src/config.ts. */
const GATEWAY_LIMITS = {
  RATE_LIMIT_ITN_IP: '600/60',
  ENQUIRY_RATE_LIMIT: '10/600',
  RATE_LIMIT_LEAD_PROFILE: '100/86400',
  RATE_LIMIT_LEAD_EMAIL: '20/86400',
  RATE_LIMIT_LOGIN_ACCOUNT: '10/900',
  RATE_LIMIT_LOGIN_IP: '30/900',
  ANALYTICS_VIEWS_PER_ADDRESS_MINUTE: '30',
};
const PROFILES_LIMITS = { LEADS_PER_PROFILE_DAY: '200', ANALYTICS_KEYS_PER_DAY: '100', ANALYTICS_VISITORS_PER_DAY: '20000' };
const ITN_MAX_BYTES = 16 * 1024;
const limitOf = (value) => Number(value.split('/')[0]);
const windowOf = (value) => Number(value.split('/')[1]);

const problems = [];
const check = (ok, what) => {
  console.log(`  ${ok ? '✓' : '✗'} ${what}`);
  if (!ok) problems.push(what);
};
const tally = () => new Map();
const count = (map, key) => map.set(key, (map.get(key) ?? 0) + 1);
const statuses = (map) =>
  [...map.entries()]
    .sort(([a], [b]) => String(a).localeCompare(String(b)))
    .map(([s, n]) => `${s}: ${n}`)
    .join(', ');
const sum = (map, pred = (_status) => true) => [...map.entries()].filter(([s]) => pred(s)).reduce((a, [, n]) => a + n, 0);
/** A 2xx answer (a status, not a connection error). */
const accepted = (s) => typeof s === 'number' && s < 300;
/** No 5xx; nor a connection ended without an answer, unless the route closes it on purpose (the ITN gate's 403). */
const no5xx = (map, what, closesOnRefusal = false) =>
  check(
    sum(map, (s) => (typeof s === 'number' ? s >= 500 : !closesOnRefusal)) === 0,
    `no 5xx${closesOnRefusal ? '' : ' or connection error'} answering ${what} (${statuses(map)})`,
  );
/** The answer's status, or `connection error` when the connection ended without one (a refusal may close it). */
const statusOf = async (request) => {
  try {
    const res = await request();
    if (res.arrayBuffer) await res.arrayBuffer();
    return res.status;
  } catch {
    return 'connection error';
  }
};
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
/** Runs `fn` over `items`, `width` at a time. */
async function pool(items, width, fn) {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) {
        const i = next++;
        await fn(items[i], i);
      }
    }),
  );
}
const one = async (system, text, params = []) => Number(Object.values((await system.sql(text, params))[0] ?? { n: 0 })[0]);
/** Polls `read` until it gives the same value twice `stableMs` apart (services write a little after the answers). */
async function settled(read, stableMs = 2000, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  let last = await read();
  while (Date.now() < deadline) {
    await sleep(stableMs);
    const now = await read();
    if (JSON.stringify(now) === JSON.stringify(last)) return now;
    last = now;
  }
  return last;
}
const SERIAL_LETTERS = '23456789ABCDEFGHJKMNPQRSTVWXYZ';
const randomSerial = () => Array.from(randomBytes(8), (b) => SERIAL_LETTERS[b % SERIAL_LETTERS.length]).join('');

const started = Date.now();
const system = await TestSystem.start({
  apps: ['mail-catcher', 'payfast-simulator', 'identity', 'profiles', 'teams', 'orders', 'payments', 'notifications', 'gateway'],
  env: { gateway: { TRUST_PROXY: '1', ...GATEWAY_LIMITS }, profiles: PROFILES_LIMITS },
});
const figures = {};
try {
  console.log(`system started in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  const leadOwner = await registerOwner(system, {
    username: 'thabo',
    firstName: 'Thabo',
    lastName: 'Mokoena',
    email: 'thabo@example.co.za',
  });
  await setMembership(system, 'thabo', 'DigiGold');
  const viewOwner = await registerOwner(system, {
    username: 'naledi',
    firstName: 'Naledi',
    lastName: 'Dube',
    email: 'naledi@example.co.za',
  });
  const guessed = await registerOwner(system, { username: 'sello', firstName: 'Sello', lastName: 'Khumalo', email: 'sello@example.co.za' });

  // 1. ITN flood ------------------------------------------------------------------------------------------------
  {
    console.log(`\n1. ITN flood: ${ITNS} posts to POST /api/payfast/notify`);
    const notifyUrl = `${system.gatewayUrl}/api/payfast/notify`;
    const form = (i) =>
      `m_payment_id=${randomUUID()}&pf_payment_id=${900000 + i}&payment_status=COMPLETE&item_name=DigiGold&amount_gross=99.00&merchant_id=10000100`;
    // A third from a stranger (403), the rest from PayFast's range: unsigned forms, garbage, and bodies over the cap.
    const kinds = ['stranger', 'unsigned', 'garbage', 'oversize', 'unsigned', 'stranger'];
    const byKind = new Map(kinds.map((k) => [k, tally()]));
    const all = tally();
    const before = await one(system, 'SELECT count(*) FROM payments.itns');
    const t0 = Date.now();
    await pool(
      Array.from({ length: ITNS }, (_, i) => i),
      16,
      async (i) => {
        const kind = kinds[i % kinds.length];
        const body =
          kind === 'garbage'
            ? randomBytes(64 + (i % 512))
            : kind === 'oversize'
              ? `${form(i)}&custom_str1=${'a'.repeat(ITN_MAX_BYTES + 1024)}`
              : form(i);
        const status = await statusOf(() =>
          fetch(notifyUrl, {
            method: 'POST',
            headers: {
              'content-type': 'application/x-www-form-urlencoded',
              ...(kind === 'stranger' ? { 'x-forwarded-for': '203.0.113.9' } : {}),
            },
            body,
          }),
        );
        count(byKind.get(kind), status);
        count(all, status);
      },
    );
    const seconds = (Date.now() - t0) / 1000;
    const after = await settled(() => one(system, 'SELECT count(*) FROM payments.itns'));
    const fromStranger = await one(system, `SELECT count(*) FROM payments.itns WHERE source_ip = '203.0.113.9'`);
    const verdicts = await system.sql(
      `SELECT coalesce(verdict, 'undecided') AS verdict, count(*)::int AS n FROM payments.itns GROUP BY 1 ORDER BY 1`,
    );
    const limit = limitOf(GATEWAY_LIMITS.RATE_LIMIT_ITN_IP);
    const windows = Math.ceil(seconds / windowOf(GATEWAY_LIMITS.RATE_LIMIT_ITN_IP)) + 1;
    const stored = after - before;
    for (const [kind, map] of byKind) console.log(`  ${kind.padEnd(9)} ${statuses(map)}`);
    console.log(
      `  sent ${ITNS} in ${seconds.toFixed(1)} s; answers ${statuses(all)}; payments.itns ${before} → ${after} rows (${stored} stored: ${verdicts.map((v) => `${v.verdict} ${v.n}`).join(', ')})`,
    );
    no5xx(all, 'the ITN endpoint', true);
    check(fromStranger === 0, `nothing stored from the stranger's address (${fromStranger} rows)`);
    check(
      stored <= limit * windows,
      `stored ${stored} ≤ RATE_LIMIT_ITN_IP ${GATEWAY_LIMITS.RATE_LIMIT_ITN_IP} over the ${windows} window(s) the ${seconds.toFixed(0)} s touched (${limit * windows})`,
    );
    check(sum(byKind.get('oversize'), (s) => s === 200) === 0, 'no body over 16 KB accepted');
    figures.itn = { sent: ITNS, seconds, all, byKind, before, after, stored, fromStranger, verdicts, limit, windows };
  }

  // 2. Analytics key flood ----------------------------------------------------------------------------------------
  {
    console.log(`\n2. Analytics key flood: ${VIEWS} views of /naledi from many addresses, plus ${VIEWS / 10} from one`);
    // 150 cards of naledi's own (as orders announces them in `orders.cards.assigned`), more than ANALYTICS_KEYS_PER_DAY.
    const own = Array.from({ length: 150 }, randomSerial);
    await system.sql(
      `INSERT INTO profiles.card_serials (serial, account_id, assigned_at) SELECT unnest($1::text[]), $2, now() ON CONFLICT DO NOTHING`,
      [own, viewOwner.accountId],
    );
    const sources = ['link', 'qr', 'nfc', 'wa', 'email', 'wallet', 'spam', randomBytes(6).toString('hex')];
    const agent = () =>
      `Mozilla/5.0 (Linux; Android 14; SM-${randomBytes(3).toString('hex')}) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${100 + (randomBytes(1)[0] % 30)}.0.${randomBytes(2).readUInt16BE()} Mobile Safari/537.36`;
    // Ten views from each of VIEWS/10 addresses, then VIEWS/10 from a single address.
    const spread = Array.from({ length: VIEWS }, (_, i) => `198.18.${Math.floor(i / 10 / 250)}.${(Math.floor(i / 10) % 250) + 1}`);
    const single = Array.from({ length: VIEWS / 10 }, () => '203.0.113.77');
    const addresses = [...spread, ...single];
    const all = tally();
    let madeUp = 0;
    let ownCards = 0;
    const t0 = Date.now();
    await pool(addresses, 16, async (address, i) => {
      const useOwn = i % 2 === 0;
      const serial = useOwn ? own[(i / 2) % own.length] : randomSerial();
      if (useOwn) ownCards += 1;
      else madeUp += 1;
      const src = sources[i % sources.length];
      const status = await statusOf(() =>
        fetch(`${system.gatewayUrl}/naledi?card=${serial}&src=${src}`, {
          headers: { 'user-agent': agent(), 'x-forwarded-for': address, accept: 'text/html' },
        }),
      );
      count(all, status);
    });
    const seconds = (Date.now() - t0) / 1000;
    const read = async () =>
      system.sql(
        `SELECT metric, count(*)::int AS keys, sum(count)::int AS counted FROM profiles.analytics_daily WHERE account_id = $1 GROUP BY metric ORDER BY metric`,
        [viewOwner.accountId],
      );
    const rows = await settled(read);
    const visitors = await one(system, 'SELECT count(*) FROM profiles.analytics_visitors WHERE account_id = $1', [viewOwner.accountId]);
    const metric = (m) => rows.find((r) => r.metric === m) ?? { keys: 0, counted: 0 };
    const ownCounted = await one(
      system,
      `SELECT count(*) FROM profiles.analytics_daily d WHERE d.account_id = $1 AND d.metric = 'card' AND d.key = ANY($2::text[])`,
      [viewOwner.accountId, own],
    );
    const perAddress = Number(GATEWAY_LIMITS.ANALYTICS_VIEWS_PER_ADDRESS_MINUTE);
    const windows = Math.ceil(seconds / 60) + 1;
    const spreadAddresses = new Set(spread).size;
    const countable = Math.min(10, perAddress * windows) * spreadAddresses + Math.min(single.length, perAddress * windows);
    console.log(
      `  sent ${addresses.length} in ${seconds.toFixed(1)} s (${madeUp} made-up serials, ${ownCards} of naledi's 150 own cards, ${sources.length} src values); answers ${statuses(all)}`,
    );
    for (const r of rows) console.log(`  analytics_daily ${r.metric.padEnd(5)} ${r.keys} row(s), ${r.counted} counted`);
    console.log(`  analytics_visitors ${visitors} row(s)`);
    no5xx(all, 'the public page');
    check(
      metric('card').keys <= limitOf(PROFILES_LIMITS.ANALYTICS_KEYS_PER_DAY) && metric('card').keys === ownCounted,
      `card keys ${metric('card').keys} ≤ ANALYTICS_KEYS_PER_DAY ${PROFILES_LIMITS.ANALYTICS_KEYS_PER_DAY}, all of them naledi's own cards (${ownCounted})`,
    );
    check(metric('view').keys <= 6, `view keys ${metric('view').keys} ≤ the 6 sources`);
    check(
      visitors <= Number(PROFILES_LIMITS.ANALYTICS_VISITORS_PER_DAY),
      `visitors ${visitors} ≤ ANALYTICS_VISITORS_PER_DAY ${PROFILES_LIMITS.ANALYTICS_VISITORS_PER_DAY}`,
    );
    check(
      metric('view').counted <= countable,
      `views counted ${metric('view').counted} ≤ ${countable} (${perAddress} an address a minute: 10 from each of ${spreadAddresses} addresses, at most ${perAddress * windows} of the ${single.length} from one)`,
    );
    figures.views = {
      sent: addresses.length,
      seconds,
      all,
      rows,
      visitors,
      madeUp,
      ownCards,
      countable,
      spreadAddresses,
      single: single.length,
      ownCounted,
    };
  }

  // 3. Lead flood ------------------------------------------------------------------------------------------------
  {
    console.log(`\n3. Lead flood: ${LEADS} submissions to /api/profiles/thabo/leads (DigiGold)`);
    const victim = 'victim@example.co.za';
    const mailBefore = new Set((await system.mail.list()).map((m) => m.id));
    const all = tally();
    const fromOne = tally();
    const toVictim = tally();
    await pool(
      Array.from({ length: LEADS }, (_, i) => i),
      8,
      async (i) => {
        // The first 20 from one address; every tenth to one typed-in address; the rest from addresses of their own.
        const address = i < 20 ? '203.0.113.50' : `198.51.100.${(i % 250) + 1}`;
        const email = i % 10 === 5 ? victim : `visitor-${i}@example.co.za`;
        const status = await statusOf(() =>
          system.client().request('/api/profiles/thabo/leads', {
            headers: { 'x-forwarded-for': address },
            body: {
              kind: i % 2 ? 'exchange' : 'lead',
              firstName: `Visitor ${i}`,
              lastName: 'Flood',
              email,
              phone: '0821234567',
              message: `Message ${i}: please call me.`,
              consent: true,
              sendCard: true,
            },
          }),
        );
        count(all, status);
        if (i < 20) count(fromOne, status);
        if (email === victim) count(toVictim, status);
      },
    );
    const stored = await settled(() => one(system, 'SELECT count(*) FROM profiles.leads WHERE account_id = $1', [leadOwner.accountId]));
    await settled(async () => (await system.mail.list()).length, 3000);
    const mails = (await system.mail.list()).filter((m) => !mailBefore.has(m.id));
    const sinceFlood = mails.length;
    const toOwner = mails.filter((m) => m.to.includes(leadOwner.email)).length;
    const toVictimMail = mails.filter((m) => m.to.includes(victim)).length;
    const toVisitors = mails.filter((m) => m.to.some((t) => /^visitor-\d+@/.test(t))).length;
    const perProfile = limitOf(GATEWAY_LIMITS.RATE_LIMIT_LEAD_PROFILE);
    const perEmail = limitOf(GATEWAY_LIMITS.RATE_LIMIT_LEAD_EMAIL);
    const perIp = limitOf(GATEWAY_LIMITS.ENQUIRY_RATE_LIMIT);
    console.log(`  answers ${statuses(all)}; from the one address ${statuses(fromOne)}; typing ${victim} ${statuses(toVictim)}`);
    console.log(
      `  profiles.leads for thabo: ${stored}; emails since the flood: ${sinceFlood} (to the owner ${toOwner}, to ${victim} ${toVictimMail}, to other visitors ${toVisitors})`,
    );
    no5xx(all, 'lead submissions');
    check(
      stored <= Math.min(perProfile, limitOf(PROFILES_LIMITS.LEADS_PER_PROFILE_DAY)),
      `leads stored ${stored} ≤ RATE_LIMIT_LEAD_PROFILE ${GATEWAY_LIMITS.RATE_LIMIT_LEAD_PROFILE} (and LEADS_PER_PROFILE_DAY ${PROFILES_LIMITS.LEADS_PER_PROFILE_DAY})`,
    );
    check(
      sum(fromOne, accepted) <= perIp,
      `accepted from one address ${sum(fromOne, accepted)} ≤ ENQUIRY_RATE_LIMIT ${GATEWAY_LIMITS.ENQUIRY_RATE_LIMIT}`,
    );
    check(
      sum(toVictim, accepted) <= perEmail && toVictimMail <= perEmail,
      `typing ${victim}: accepted ${sum(toVictim, accepted)}, emails to it ${toVictimMail}, ≤ RATE_LIMIT_LEAD_EMAIL ${GATEWAY_LIMITS.RATE_LIMIT_LEAD_EMAIL}`,
    );
    check(toOwner <= stored, `emails to the owner ${toOwner} ≤ leads stored ${stored}`);
    figures.leads = { sent: LEADS, all, fromOne, toVictim, stored, sinceFlood, toOwner, toVictimMail, toVisitors, victim };
  }

  // 4. Parallel password guesses -------------------------------------------------------------------------------------
  {
    console.log(`\n4. Parallel password guesses: ${GUESSES} wrong passwords at once against sello, then the right one`);
    const identityMetrics = `http://127.0.0.1:${system.envFor('identity').HEALTH_PORT}/metrics`;
    const checked = async () => {
      const text = await (await fetch(identityMetrics)).text();
      return [...text.matchAll(/^digicard_rpc_handled_total\{([^}]*)\} (\d+)/gm)]
        .filter((m) => m[1].includes('subject="identity.account.authenticate"'))
        .reduce((a, m) => a + Number(m[2]), 0);
    };
    const before = await checked();
    const all = tally();
    const signIn = (password, address) =>
      system.client().request('/api/session', { body: { email: guessed.email, password }, headers: { 'x-forwarded-for': address } });
    await Promise.all(
      Array.from({ length: GUESSES }, async (_, i) => count(all, await statusOf(() => signIn(`wrong guess ${i}`, `192.0.2.${i + 1}`)))),
    );
    const right = await signIn(guessed.password, '192.0.2.250');
    const reached = (await checked()) - before;
    const limit = limitOf(GATEWAY_LIMITS.RATE_LIMIT_LOGIN_ACCOUNT);
    console.log(
      `  wrong guesses: ${statuses(all)}; reached identity's password check: ${reached} (of ${GUESSES + 1} with the right one); the right password afterwards: ${right.status}${right.headers.get('retry-after') ? ` (Retry-After ${right.headers.get('retry-after')} s)` : ''}`,
    );
    no5xx(all, 'sign-in');
    check(reached <= limit, `password checks ${reached} ≤ RATE_LIMIT_LOGIN_ACCOUNT ${GATEWAY_LIMITS.RATE_LIMIT_LOGIN_ACCOUNT}`);
    check(sum(all, (s) => s === 200) === 0, 'no wrong password signed in');
    check(right.status === 429, `the right password is refused while the account is slowed (${right.status})`);
    figures.guesses = { sent: GUESSES, all, reached, right: right.status, retryAfter: right.headers.get('retry-after'), limit };
  }
} catch (error) {
  console.error(error);
  problems.push(String(error));
} finally {
  await system.stop();
}
console.log(
  `\n${problems.length ? `✗ ${problems.length} problem(s)` : '✓ nothing stored beyond its limit, no 5xx'} in ${((Date.now() - started) / 1000).toFixed(0)} s`,
);
if (process.argv.includes('--json')) console.log(JSON.stringify(figures, (_, v) => (v instanceof Map ? Object.fromEntries(v) : v)));
process.exit(problems.length ? 1 : 0);

import assert from 'node:assert/strict';
import { get } from 'node:http';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { AnalyticsUpgradeMessage, type AnalyticsReport } from '@digicard/contracts';
import { saDay } from '@digicard/domain';
import { TestSystem, registerOwner, setMembership, waitFor, type TestOwner } from '@digicard/testing';

const BROWSER = 'Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36';
const ROBOTS = [
  'WhatsApp/2.23.20.0 A',
  'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)',
  'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)',
  'Twitterbot/1.0',
  'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
  'TelegramBot (like TwitterBot)',
  'curl/8.5.0',
  '',
];

describe('analytics: views by source, Save to Contact, clicks, robots left out, reports per tier', () => {
  let system: TestSystem;
  let nomsa: TestOwner;
  let sipho: TestOwner;

  const visit = (path: string, userAgent = BROWSER, headers: Record<string, string> = {}) =>
    fetch(`${system.gatewayUrl}${path}`, {
      redirect: 'manual',
      headers: { 'user-agent': userAgent, 'x-forwarded-for': '10.1.1.1', ...headers },
    }).then(async (r) => {
      await r.arrayBuffer();
      return r.status;
    });
  const beacon = (username: string, target: string, contentType = 'text/plain;charset=UTF-8') =>
    fetch(`${system.gatewayUrl}/api/profiles/${username}/clicks`, {
      method: 'POST',
      headers: { 'user-agent': BROWSER, 'content-type': contentType, origin: system.gatewayUrl, 'sec-fetch-site': 'same-origin' },
      body: JSON.stringify({ target }),
    });
  const counts = (username: string) =>
    system.sql<{ metric: string; key: string; n: number }>(
      'SELECT d.metric, d.key, sum(d.count)::int AS n FROM profiles.analytics_daily d JOIN profiles.profiles p USING (account_id) WHERE p.username = $1 GROUP BY 1, 2 ORDER BY 1, 2',
      [username],
    );

  beforeAll(async () => {
    system = await TestSystem.shared({
      apps: ['mail-catcher', 'identity', 'profiles', 'notifications', 'gateway'],
      env: { gateway: { ANALYTICS_FLUSH_MS: '200' } },
    });
    nomsa = await registerOwner(system, { username: 'nomsa', firstName: 'Nomsa', lastName: 'Khumalo', email: 'nomsa@example.co.za' });
    sipho = await registerOwner(system, { username: 'sipho', firstName: 'Sipho', lastName: 'Ndlovu', email: 'sipho@example.co.za' });
    await setMembership(system, 'nomsa', 'DigiPlatinum');
    // Nomsa's NFC card: orders announces each card's page (orders.cards.assigned); orders does not run here, so profiles'
    // copy is written as that event would. Views through a card count only for a card of the page viewed.
    await system.sql('INSERT INTO profiles.card_serials (serial, account_id, assigned_at) VALUES ($1, $2, now())', [
      'DC7K2M9Q',
      nomsa.accountId,
    ]);
  });
  afterAll(() => system?.stop());

  it('counts people’s views by source and card, Save to Contact and clicks; never robots, previews, prefetches or the owner', async () => {
    for (const path of [
      '/nomsa',
      '/nomsa?src=qr',
      '/nomsa?src=qr',
      '/nomsa?src=wa',
      '/nomsa?src=email',
      '/nomsa?src=wallet',
      '/nomsa?src=nfc&card=DC7K2M9Q',
      '/nomsa?src=nonsense',
    ]) {
      assert.equal(await visit(path), 200);
    }
    for (const robot of ROBOTS) assert.equal(await visit('/nomsa?src=qr', robot), 200, 'robots still get the page');
    assert.equal(await visit('/nomsa', BROWSER, { 'sec-purpose': 'prefetch' }), 200);
    assert.equal(
      (await fetch(`${system.gatewayUrl}/nomsa`, { headers: { 'user-agent': BROWSER, cookie: nomsa.client.cookie! } })).status,
      200,
      'the owner sees their page',
    );
    const vcard = await fetch(`${system.gatewayUrl}/api/profiles/nomsa/vcard`, { headers: { 'user-agent': BROWSER } });
    assert.equal(vcard.status, 200);
    await vcard.arrayBuffer();
    assert.equal((await beacon('nomsa', 'social:linkedin')).status, 204);
    assert.equal((await beacon('nomsa', 'share:wa', 'application/json')).status, 204);
    assert.equal((await beacon('nomsa', 'website:0')).status, 204);
    const bad = await beacon('nomsa', '<script>');
    assert.equal(bad.status, 400);
    assert.equal((await beacon('Not A Name!', 'website:0')).status, 404);

    const rows = await waitFor('the batches in profiles', async () => {
      const r = await counts('nomsa');
      return r.reduce((s, x) => s + x.n, 0) === 13 ? r : null;
    });
    assert.deepEqual(Object.fromEntries(rows.map((r) => [`${r.metric}:${r.key}`, r.n])), {
      'card:DC7K2M9Q': 1,
      'click:share:wa': 1,
      'click:social:linkedin': 1,
      'click:website:0': 1,
      'save:': 1,
      'view:email': 1,
      'view:link': 2,
      'view:nfc': 1,
      'view:qr': 2,
      'view:wa': 1,
      'view:wallet': 1,
    });
    // One browser at one address is one visitor; the hash never holds the address.
    const visitors = await system.sql<{ hash: string }>(
      "SELECT v.hash FROM profiles.analytics_visitors v JOIN profiles.profiles p USING (account_id) WHERE p.username = 'nomsa'",
    );
    assert.equal(visitors.length, 1);
    assert.match(visitors[0]!.hash, /^[0-9a-f]{32}$/);
    const everything =
      JSON.stringify(await system.sql('SELECT * FROM profiles.analytics_visitors')) +
      JSON.stringify(await system.sql('SELECT * FROM profiles.analytics_daily'));
    assert.ok(!everything.includes('10.1.1.1') && !everything.includes('127.0.0.1'));
  });

  it('counts a visitor once a day per browser and address: two browsers at one address are two, one browser at two addresses is two', async () => {
    await registerOwner(system, { username: 'lindiwe', firstName: 'Lindiwe', lastName: 'Zulu', email: 'lindiwe@example.co.za' });
    // The page is there once profiles has heard of the registration (an event: on a busy machine, a moment later);
    // looked for as a robot, whose visits are not counted.
    await waitFor('lindiwe’s page', async () => (await visit('/lindiwe', 'curl/8.5.0')) === 200);
    const IPHONE =
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
    // From another address on the loopback network (the gateway trusts no proxy here: the socket's peer is the address).
    const visitFrom = (localAddress: string, userAgent: string) =>
      new Promise<number>((resolve, reject) => {
        const url = new URL(`${system.gatewayUrl}/lindiwe?src=qr`);
        get(
          { host: url.hostname, port: url.port, path: `${url.pathname}${url.search}`, localAddress, headers: { 'user-agent': userAgent } },
          (res) => {
            res.resume();
            res.on('end', () => resolve(res.statusCode ?? 0));
          },
        ).on('error', reject);
      });
    const visitorsOf = async () =>
      (
        await system.sql<{ n: number }>(
          "SELECT count(*)::int AS n FROM profiles.analytics_visitors v JOIN profiles.profiles p USING (account_id) WHERE p.username = 'lindiwe'",
        )
      )[0]!.n;
    const viewsOf = async () => (await counts('lindiwe')).reduce((s, r) => s + r.n, 0);
    const round = async () => {
      for (const [address, agent] of [
        ['127.0.0.1', BROWSER],
        ['127.0.0.1', BROWSER],
        ['127.0.0.1', IPHONE],
        ['127.0.0.2', BROWSER],
        ['127.0.0.3', ROBOTS[0]!],
      ] as const) {
        assert.equal(await visitFrom(address, agent), 200);
      }
    };
    await round();
    await waitFor('four views and three visitors', async () => (await viewsOf()) === 4 && (await visitorsOf()) === 3);
    // The same people again, in a later batch: more views, no more visitors.
    await round();
    await waitFor('eight views', async () => (await viewsOf()) === 8);
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.equal(await visitorsOf(), 3);

    // Behind one proxy (TRUST_PROXY=1) the address is the one the proxy forwards, on the full path (the first view,
    // which renders the page) and on the cached page's path alike.
    await system.stopApp('gateway');
    await system.startApp('gateway', { TRUST_PROXY: '1' });
    try {
      for (const client of ['198.51.100.7', '198.51.100.7', '198.51.100.8', '198.51.100.8']) {
        assert.equal(await visit('/lindiwe?src=qr', BROWSER, { 'x-forwarded-for': `203.0.113.9, ${client}` }), 200);
      }
      await waitFor('twelve views and five visitors', async () => (await viewsOf()) === 12 && (await visitorsOf()) === 5);
    } finally {
      await system.stopApp('gateway');
      await system.startApp('gateway');
    }
  });

  it('gives DigiPlatinum the full report and CSV, by source and day', async () => {
    const report = await nomsa.client.request('/api/analytics');
    assert.equal(report.status, 200);
    const body = report.body as AnalyticsReport;
    assert.equal(body.full, true);
    assert.deepEqual(body.bySource, { link: 2, qr: 2, nfc: 1, wa: 1, email: 1, wallet: 1 });
    assert.deepEqual(body.totals, { views: 8, visitors: 1, saves: 1, clicks: 3, leads: 0 });
    assert.deepEqual(body.cards, [{ serial: 'DC7K2M9Q', views: 1 }]);
    assert.equal(body.daily.length, 30);
    const today = saDay();
    const range = await nomsa.client.request(`/api/analytics?from=${today}&to=${today}`);
    assert.equal(range.status, 200);
    assert.equal((range.body as AnalyticsReport).daily.length, 1);
    const csv = await nomsa.client.request(`/api/analytics.csv?from=${today}&to=${today}`);
    assert.equal(csv.status, 200);
    assert.match(csv.headers.get('content-type') ?? '', /text\/csv/);
    assert.equal(csv.headers.get('content-disposition'), `attachment; filename="analytics-${today}-${today}.csv"`);
    const lines = String(csv.body)
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    assert.equal(
      lines[0],
      'Date,Views,Views: Link,Views: QR code,Views: NFC card,Views: WhatsApp share,Views: Email share,Views: Wallet pass,Unique visitors,Saved to contacts,Clicks,Leads',
    );
    assert.equal(lines[1], `${today},8,2,2,1,1,1,1,1,1,3,0`);
    assert.equal(lines[2], 'Total,8,2,2,1,1,1,1,1,1,3,0');
    const badDate = await nomsa.client.request('/api/analytics?from=yesterday');
    assert.equal(badDate.status, 400);
    assert.ok(badDate.body.fieldErrors.from);
  });

  it('gives every other tier the 30-day totals and refuses the range and the CSV; another owner sees only their own', async () => {
    assert.equal(await visit('/sipho?src=qr'), 200);
    for (const membership of ['DigiShare', 'DigiSilver', 'DigiGold']) {
      await setMembership(system, 'sipho', membership);
      const report = await sipho.client.request('/api/analytics');
      assert.equal(report.status, 200, membership);
      assert.equal(report.body.full, false);
      assert.deepEqual(report.body.daily, []);
      const range = await sipho.client.request(`/api/analytics?from=${saDay()}&to=${saDay()}`);
      assert.deepEqual([range.status, range.body.message], [403, AnalyticsUpgradeMessage], membership);
      const csv = await sipho.client.request('/api/analytics.csv');
      assert.equal(csv.status, 403, membership);
    }
    const siphoReport = await waitFor('sipho’s view', async () => {
      const r = await sipho.client.request('/api/analytics');
      return r.body.totals.views === 1 ? r.body : null;
    });
    assert.equal(siphoReport.totals.saves, 0, 'Nomsa’s numbers are not Sipho’s');
    const signedOut = await fetch(`${system.gatewayUrl}/api/analytics`);
    assert.equal(signedOut.status, 401);
    assert.equal((await fetch(`${system.gatewayUrl}/api/analytics.csv`)).status, 401);
  });

  it('shows share links to DigiSilver and up, tagged with their source', async () => {
    await setMembership(system, 'sipho', 'DigiShare');
    await sipho.client
      .request('/api/profile/settings', { method: 'PUT', body: { isPublic: true, membership: 'DigiShare' } })
      .catch(() => undefined);
    const plain = await waitFor('no share links on DigiShare', async () => {
      const html = await (await fetch(`${system.gatewayUrl}/sipho`, { headers: { 'user-agent': BROWSER } })).text();
      return html.includes('Share on WhatsApp') ? null : html;
    });
    assert.ok(!plain.includes('wa.me'));
    await setMembership(system, 'sipho', 'DigiSilver');
    await sipho.client
      .request('/api/profile/settings', { method: 'PUT', body: { isPublic: true, membership: 'DigiSilver' } })
      .catch(() => undefined);
    const html = await waitFor('share links on DigiSilver', async () => {
      const text = await (await fetch(`${system.gatewayUrl}/sipho`, { headers: { 'user-agent': BROWSER } })).text();
      return text.includes('Share on WhatsApp') ? text : null;
    });
    const wa = /href="(https:\/\/wa\.me\/\?text=[^"]+)"/.exec(html)?.[1];
    assert.ok(wa);
    assert.ok(decodeURIComponent(wa.replace(/&amp;/g, '&').split('text=')[1]!).endsWith(`${system.gatewayUrl}/sipho?src=wa`));
    const mail = /href="(mailto:[^"]+)"/.exec(html)?.[1];
    assert.ok(mail && decodeURIComponent(mail.replace(/&amp;/g, '&')).includes(`${system.gatewayUrl}/sipho?src=email`));
  });

  it('counts at most ANALYTICS_VIEWS_PER_ADDRESS_MINUTE views from one client address a minute; the page is still served', async () => {
    const viewsOfSipho = async () => (await counts('sipho')).filter((r) => r.metric === 'view').reduce((n, r) => n + r.n, 0);
    await system.stopApp('gateway');
    await system.startApp('gateway', { TRUST_PROXY: '1', ANALYTICS_VIEWS_PER_ADDRESS_MINUTE: '5' });
    // What the earlier tests' gateway flushed as it stopped has landed.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const before = await viewsOfSipho();
    try {
      for (let i = 0; i < 8; i++) assert.equal(await visit('/sipho?src=qr', BROWSER, { 'x-forwarded-for': '198.51.100.40' }), 200);
      for (let i = 0; i < 2; i++) assert.equal(await visit('/sipho?src=qr', BROWSER, { 'x-forwarded-for': '198.51.100.41' }), 200);
      await waitFor('seven views', async () => (await viewsOfSipho()) === before + 7).catch(async (e: unknown) => {
        throw new Error(`${String(e)}: ${before} before, ${await viewsOfSipho()} now`);
      });
      await new Promise((resolve) => setTimeout(resolve, 600));
      assert.equal(await viewsOfSipho(), before + 7);
    } finally {
      await system.stopApp('gateway');
      await system.startApp('gateway');
    }
  });
});

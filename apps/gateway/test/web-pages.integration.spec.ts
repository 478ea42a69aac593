import assert from 'node:assert/strict';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { SALES_INBOX } from '@digicard/testing';
import { InProcessGateway } from './support/in-process-gateway.js';
import { ServicesBehind } from './support/services-behind.js';

/**
 * The marketing pages come rendered by the gateway (the web app's server bundle, apps/web/dist-ssr), with the
 * catalogue as orders has it, the plans as payments serves them and the deployment's site config; the other pages
 * are the app's index.html. The gateway, orders and payments run in the test's process, on the gateway's NATS server.
 */
describe('the web pages rendered by the gateway', () => {
  let system: InProcessGateway;
  let services: ServicesBehind;
  const page = async (path: string, headers: Record<string, string> = {}) => {
    const res = await fetch(`${system.gatewayUrl}${path}`, { headers });
    return { res, html: await res.text() };
  };
  const rootOf = (html: string) => html.slice(html.indexOf('<div id="root"'), html.indexOf('</body>'));

  beforeAll(async () => {
    system = await InProcessGateway.start();
    services = await ServicesBehind.start(system, ['orders', 'payments']);
    // Before the gateway first reads the catalogue (it keeps it a minute): a price and a name only the database has.
    await services.get('orders').sql(`UPDATE orders.catalogue_items SET normal_price = 37300 WHERE id = 'pvc-card'`);
    await services
      .get('orders')
      .sql(`UPDATE orders.catalogue_items SET name = 'Bamboo </script><script>alert(1)</script> Card' WHERE id = 'bamboo-card'`);
  });
  afterAll(async () => {
    await services?.stop();
    await system?.stop();
  });

  it('sends an item page with its content, title, description and the prices orders has, cached as index.html is', async () => {
    const { res, html } = await page('/accessories/pvc-card', { 'accept-encoding': 'gzip' });
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^text\/html/);
    assert.equal(res.headers.get('cache-control'), 'no-cache');
    assert.equal(res.headers.get('content-encoding'), 'gzip');
    assert.match(res.headers.get('content-security-policy') ?? '', /default-src 'self'/);
    assert.match(html, /<div id="root" data-prerendered>/);
    assert.match(html, /<title>PVC NFC Card \| DigiCard<\/title>/);
    assert.match(html, /<meta\s+name="description"\s+content="A classic PVC business card that shares your profile with one tap"/);
    assert.match(rootOf(html), /<h1[^>]*>PVC NFC Card<\/h1>/);
    assert.match(rootOf(html), /R373\.00/, 'the price in the database, not the seed’s R369.00');
    assert.doesNotMatch(rootOf(html), /R369\.00/);
    assert.match(html, /<script type="application\/json" id="site-config">\{"brandName":"DigiCard"/);
    const data = html.match(/<script type="application\/json" id="catalogue-data">(.*?)<\/script>/)?.[1];
    assert.ok(data, 'the catalogue the page was rendered with is in the page');
    const items = (JSON.parse(data) as { items: { id: string; normalPrice: number }[] }).items;
    assert.equal(items.find((i) => i.id === 'pvc-card')?.normalPrice, 37300);
    assert.equal(html.match(/<script type="module"[^>]*src="\/assets\/[^"]+\.js"/g)?.length, 1, 'one script: the first-load one');

    const etag = res.headers.get('etag');
    assert.ok(etag);
    // A browser's revalidation (node:http: Node's fetch asks for no cache, which express rightly answers in full).
    const status = await new Promise<number | undefined>((resolve, reject) => {
      request(`${system.gatewayUrl}/accessories/pvc-card`, { headers: { 'if-none-match': etag } }, (r) => {
        r.resume();
        r.on('end', () => resolve(r.statusCode));
      })
        .on('error', reject)
        .end();
    });
    assert.equal(status, 304);
  });

  it('escapes what the catalogue holds, in the page and in the embedded data', async () => {
    const { res, html } = await page('/accessories/bamboo-card');
    assert.equal(res.status, 200);
    assert.ok(!html.includes('<script>alert(1)'), 'no script from the catalogue');
    assert.match(rootOf(html), /Bamboo &lt;\/script&gt;&lt;script&gt;alert\(1\)&lt;\/script&gt; Card/);
    assert.match(html, /"name":"Bamboo \\u003c\/script>\\u003cscript>alert\(1\)\\u003c\/script> Card"/);
  });

  it('renders the marketing pages with the site config: /, /pricing, /contact, /accessories, a special, the terms', async () => {
    const expected: Record<string, [string, RegExp]> = {
      '/': ['Digital Business Cards | DigiCard', /DigiPlatinum/],
      '/pricing': ['Packages | DigiCard', /R49\.00 per month/],
      '/contact': ['Contact | DigiCard', /https:\/\/wa\.me\/27821234567/],
      '/accessories': ['Accessories | DigiCard', /R373\.00/],
      '/specials/pvc-special': ['PVC NFC Card Special | DigiCard', /R899\.00/],
      '/terms-and-conditions': ['Terms and Conditions | DigiCard', /Effective 1 January 2024/],
    };
    for (const [path, [title, text]] of Object.entries(expected)) {
      const { res, html } = await page(path);
      assert.equal(res.status, 200, path);
      assert.ok(html.includes(`<title>${title}</title>`), path);
      assert.match(rootOf(html), text, path);
    }
    assert.ok((await page('/contact')).html.includes(`mailto:${SALES_INBOX}`));
  });

  it('renders /pricing with the plans payments serves (GET /api/plans), embedded for the browser: no price of its own', async () => {
    // Parsed here as the page's copy is, so both are objects of the test's own realm (Jest's) and compare deeply.
    const served = JSON.parse(await (await fetch(`${system.gatewayUrl}/api/plans`)).text()) as {
      plans: { tier: string; monthlyPriceCents: number | null }[];
    };
    const { res, html } = await page('/pricing');
    assert.equal(res.status, 200);
    const data = html.match(/<script type="application\/json" id="plans-data">(.*?)<\/script>/)?.[1];
    assert.ok(data, 'the plans the page was rendered with are in the page');
    assert.deepEqual(JSON.parse(data), served);
    const rand = (cents: number) => `R${(cents / 100).toFixed(2)} per month`;
    for (const plan of served.plans.filter((p) => p.monthlyPriceCents))
      assert.ok(rootOf(html).includes(rand(plan.monthlyPriceCents!)), plan.tier);
    assert.match(rootOf(html), /Price on request/);
  });

  it('renders the terms with the clauses the spec names (section 6 and 9): the account holder, closing accounts, minors, trials, refunds', async () => {
    const { res, html } = await page('/terms-and-conditions');
    assert.equal(res.status, 200);
    const text = rootOf(html)
      .replace(/<[^>]+>/g, ' ')
      .replace(/\s+/g, ' ');
    const clauses: Array<[string, RegExp]> = [
      ['Account holder is responsible for activity on the account', /You are responsible for all activity on your account/],
      ['the provider may terminate accounts at its discretion', /We may suspend or close an account at our discretion/],
      ['minors need parental approval', /If you are under 18, you may use the service only with the approval of a parent or guardian/],
      [
        'trial subscriptions renew automatically unless cancelled',
        /A trial or an included period, .* renews automatically as a paid monthly membership when it ends, unless you cancel/,
      ],
      ['no refunds', /We do not refund partial months/],
      [
        'no refunds or price protection on price drops',
        /If a price drops after you have paid, we do not refund the difference \(there is no price protection\)/,
      ],
      ['paid services in Rand', /priced and paid in South African rand \(ZAR\)/],
      ['effective 1 January 2024', /Effective 1 January 2024/],
    ];
    for (const [spec, clause] of clauses) assert.match(text, clause, spec);
  });

  it('keeps the pages the browser draws as the app shell', async () => {
    for (const path of ['/login', '/dashboard', '/cart', '/register']) {
      const { res, html } = await page(path);
      assert.equal(res.status, 200, path);
      assert.match(html, /<div id="root"><\/div>/, path);
    }
  });

  it('renders missing pages once per kind: 404 with the same page for any unknown path', async () => {
    const a = await page('/no/such/page');
    const b = await page('/still/not/here'); // (one segment would be a profile's /{username})
    assert.equal(a.res.status, 404);
    assert.equal(b.res.status, 404);
    assert.match(rootOf(a.html), /Oops!!! Page not found\./);
    assert.equal(a.html, b.html, 'one rendering serves every unknown path');
    const card = await page('/accessories/gold-card');
    const other = await page('/accessories/no-such-card');
    assert.equal(card.res.status, 404);
    assert.match(rootOf(card.html), /Card not found/);
    assert.equal(card.html, other.html);
  });

  it('never serves the build’s own files: the server bundle and the Vite manifest', async () => {
    assert.equal((await page('/.vite/manifest.json')).res.status, 404);
    assert.equal((await page('/entry-server.js')).res.status, 404);
    assert.equal((await page('/dist-ssr/entry-server.js')).res.status, 404);
  });
});

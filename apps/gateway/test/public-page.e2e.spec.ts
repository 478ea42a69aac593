import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import sharp from 'sharp';
import { ProfileDefaults } from '@digicard/contracts';
import { TestSystem, registerOwner, setMembership, waitFor, type TestOwner } from '@digicard/testing';

const BROWSER = 'Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36';
const photo = () => sharp({ create: { width: 600, height: 600, channels: 3, background: { r: 20, g: 90, b: 160 } } }).png().toBuffer();

describe('the public profile page /{username}: rendered on the server, cached, and fresh after a save', () => {
  let system: TestSystem;
  let thabo: TestOwner;
  const page = async (path: string, init: RequestInit = {}) => {
    // A browser's User-Agent: requests without one are robots to the view counter.
    const res = await fetch(`${system.gatewayUrl}${path}`, { redirect: 'manual', ...init, headers: { 'user-agent': BROWSER, ...(init.headers as Record<string, string>) } });
    return { status: res.status, html: await res.text(), headers: res.headers };
  };

  beforeAll(async () => {
    system = await TestSystem.start({ apps: ['mail-catcher', 'identity', 'profiles', 'notifications', 'gateway'] });
    thabo = await registerOwner(system, { username: 'thabo', firstName: 'Thabo', lastName: 'Mokoena', email: 'thabo@example.co.za' });
    await setMembership(system, 'thabo', 'DigiGold');
    const image = await thabo.client.request('/api/profile/images/profileImage', { method: 'POST', raw: await photo(), headers: { 'content-type': 'image/png' } });
    const gallery = await thabo.client.request('/api/profile/images/gallery', { method: 'POST', raw: await photo(), headers: { 'content-type': 'image/png' } });
    const document = {
      ...ProfileDefaults,
      profileImage: image.body.url,
      profileImageHeight: 200,
      title: 'Sales Director <Karoo>',
      businessName: 'Mokoena Solar',
      profileBio: 'Solar for every roof.',
      websiteLinks: [{ buttonName: 'Our website', url: 'https://mokoena.co.za' }, { buttonName: '', url: 'https://no-name.co.za' }],
      socialLinks: [{ platform: 'linkedin', url: 'https://www.linkedin.com/in/thabo' }],
      gallery: [{ imageUrl: gallery.body.url }],
      products: [{ name: 'Solar kit', link: 'https://mokoena.co.za/kit', imageUrl: '' }, { name: 'No link', link: '', imageUrl: '' }],
      videoLink: 'https://youtu.be/dQw4w9WgXcQ',
    };
    const saved = await thabo.client.request('/api/profile', { method: 'PUT', body: { document } });
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
  });
  afterAll(() => system?.stop());

  it('serves the whole page as HTML with the data in it, Open Graph tags, and the small script', async () => {
    const { status, html, headers } = await page('/thabo');
    assert.equal(status, 200);
    assert.match(headers.get('content-type') ?? '', /text\/html/);
    assert.match(html, /<title>Thabo Mokoena \| DigiCard<\/title>/);
    assert.match(html, /<h1[^>]*>Thabo Mokoena<\/h1>/);
    assert.ok(html.includes('Sales Director &lt;Karoo&gt;'), 'text is escaped');
    assert.match(html, new RegExp(`<meta property="og:url" content="${system.gatewayUrl}/thabo"`));
    assert.match(html, new RegExp(`<meta property="og:image" content="${system.gatewayUrl}/media/[A-Za-z0-9_-]+\\.webp"`));
    assert.match(html, /data-header-height="220"/, 'header height is image height + 20');
    assert.ok(html.includes('https://mokoena.co.za') && !html.includes('https://no-name.co.za'), 'website buttons need a name');
    assert.ok(html.includes('https://www.linkedin.com/in/thabo'));
    assert.ok(html.includes('youtube-nocookie.com/embed/dQw4w9WgXcQ'));
    assert.ok(html.includes('My Gallery') && html.includes('Solar kit') && !html.includes('No link'));
    for (const text of ['Save to Contact', 'Exchange Contact', 'Get your own Profile', 'About Me', 'Let me get in contact with you.', 'Powered By']) {
      assert.ok(html.includes(text), text);
    }
    const script = /<script src="(\/profile-assets\/profile-page\.js\?v=[0-9a-f]+)"/.exec(html)?.[1];
    assert.ok(script);
    const js = await fetch(`${system.gatewayUrl}${script}`);
    assert.equal(js.headers.get('cache-control'), 'public, max-age=31536000, immutable');
    assert.ok((await js.text()).length < 4096);
    assert.match(headers.get('content-security-policy') ?? '', /frame-src https:\/\/www.youtube-nocookie.com/);
  });

  it('shows a Save within a second, and what the tier allows only', async () => {
    await page('/thabo');
    const { body } = await thabo.client.request('/api/profile');
    await thabo.client.request('/api/profile', { method: 'PUT', body: { document: { ...body.document, title: 'Managing Director' } } });
    const started = Date.now();
    await waitFor('the new title', async () => (await page('/thabo')).html.includes('Managing Director'), 1000, 50);
    assert.ok(Date.now() - started < 1000);

    await setMembership(system, 'thabo', 'DigiShare');
    await thabo.client.request('/api/profile/settings', { method: 'PUT', body: { isPublic: true, membership: 'DigiShare' } });
    await waitFor('the page without gold content', async () => !(await page('/thabo')).html.includes('My Gallery'), 2000, 50);
    const { html } = await page('/thabo');
    assert.ok(!html.includes('linkedin.com/in/thabo'), 'no social links on DigiShare');
    assert.ok(!html.includes('youtube-nocookie') && !html.includes('Solar kit') && !html.includes('Let me get in contact with you.'));
    await setMembership(system, 'thabo', 'DigiGold');
    await thabo.client.request('/api/profile/settings', { method: 'PUT', body: { isPublic: true, membership: 'DigiGold' } }).catch(() => undefined);
  });

  it('records each view with its source: link, QR code or NFC card', async () => {
    // Views of cached pages are counted in the gateway and sent once a second: let earlier ones land first.
    await new Promise((r) => setTimeout(r, 1500));
    await system.sql('DELETE FROM profiles.analytics_daily');
    await page('/thabo');
    await page('/thabo?src=qr');
    await page('/thabo?src=qr');
    await page('/thabo?src=nfc');
    await page('/thabo?src=whatever');
    const counts = await waitFor('5 views', async () => {
      const rows = await system.sql<{ source: string; n: number }>("SELECT key AS source, sum(count)::int AS n FROM profiles.analytics_daily WHERE metric = 'view' GROUP BY key ORDER BY key");
      return rows.reduce((s, r) => s + r.n, 0) === 5 ? rows : null;
    });
    assert.deepEqual(Object.fromEntries(counts.map((r) => [r.source, r.n])), { link: 2, qr: 2, nfc: 1 });
    await thabo.client.request('/api/profile');
    const ownView = await fetch(`${system.gatewayUrl}/thabo`, { headers: { cookie: thabo.client.cookie! } });
    assert.equal(ownView.status, 200);
  });

  it('redirects an account id, a vanity path and capitals to the username address', async () => {
    assert.deepEqual([(await page(`/${thabo.accountId}`)).status, (await page(`/${thabo.accountId}`)).headers.get('location')], [301, '/thabo']);
    await system.sql('INSERT INTO profiles.vanity_paths (path, account_id) VALUES ($1, $2)', ['pinnacle-point-2', thabo.accountId]);
    const vanity = await page('/pinnacle-point-2?src=nfc');
    assert.equal(vanity.status, 301);
    assert.equal(vanity.headers.get('location'), '/thabo?src=nfc');
    const caps = await page('/Thabo');
    assert.equal(caps.status, 301);
    assert.equal(caps.headers.get('location'), '/thabo');
  });

  it('shows a team member’s page with the business’s styling and content, and its tier (businessId)', async () => {
    const rep = await registerOwner(system, { username: 'sipho-rep', firstName: 'Sipho', lastName: 'Nkosi', email: 'sipho@example.co.za' });
    const { body } = await rep.client.request('/api/profile');
    await rep.client.request('/api/profile', { method: 'PUT', body: { document: { ...body.document, title: 'Sales Rep', businessName: 'My own shop' } } });
    await system.sql('UPDATE profiles.profiles SET business_account_id = $1 WHERE username = $2', [thabo.accountId, 'sipho-rep']);
    const { status, html } = await page('/sipho-rep');
    assert.equal(status, 200);
    assert.match(html, /<h1[^>]*>Sipho Nkosi<\/h1>/);
    assert.ok(html.includes('Sales Rep'), 'the rep keeps their own title');
    assert.ok(html.includes('Mokoena Solar') && !html.includes('My own shop'), 'the business name is the business’s');
    assert.ok(html.includes('https://mokoena.co.za') && html.includes('My Gallery'), 'links and gallery come from the business, with its tier');
    const lead = await system.client().request('/api/profiles/sipho-rep/leads', { body: { kind: 'lead', firstName: 'Lindiwe', email: 'lindiwe@example.co.za', consent: true } });
    assert.equal(lead.status, 202, 'the lead form follows the business’s tier');
  });

  it('shows an unknown, unverified or private profile to nobody but its owner', async () => {
    assert.equal((await page('/nobody-at-all')).status, 404);
    const zanele = await registerOwner(system, { username: 'zanele', firstName: 'Zanele', lastName: 'Zulu', email: 'zanele@example.co.za' }, { verify: false });
    assert.equal((await page('/zanele')).status, 404);
    const own = await fetch(`${system.gatewayUrl}/zanele`, { headers: { cookie: zanele.client.cookie! } });
    assert.equal(own.status, 200);
    assert.match(await own.text(), /Only you can see this page/);
    await thabo.client.request('/api/profile/settings', { method: 'PUT', body: { isPublic: false, membership: 'DigiGold' } });
    await waitFor('the private page to go', async () => (await page('/thabo')).status === 404, 2000, 50);
  });
});

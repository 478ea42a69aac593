import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import sharp from 'sharp';
import { TestSystem, createStaffAccount, registerOwner, waitFor, type TestOwner } from '@digicard/testing';

// The proof of a team member's card (a profile with a business, spec's businessId) through the whole system:
// identity, profiles (the real inheritance, `withBusiness`), orders (the proof worker), payments and the PayFast
// simulator. The business is set by staff as the console does. Neither account is verified or public: a card is
// printed from a profile whether or not it is shared yet.

const work = mkdtempSync(join(tmpdir(), 'proof-business-'));

/** A solid-colour PNG logo. */
const logo = (background: string) =>
  sharp({ create: { width: 300, height: 120, channels: 3, background } })
    .png()
    .toBuffer();

/** The buyer on the simulator's page: open the signed redirect, press Pay (PayFast's ITN goes to the gateway). */
async function pay(system: TestSystem, redirectUrl: string): Promise<void> {
  const html = await (await fetch(redirectUrl)).text();
  const action = /\/eng\/process\/([\w-]+)/.exec(html.replace(/&#x2F;|&#47;/g, '/'))?.[1];
  assert.ok(action, 'the simulator shows a Pay button');
  const paid = await fetch(`${system.payfastUrl}/eng/process/${action}/pay`, { method: 'POST', redirect: 'manual' });
  assert.ok([200, 303].includes(paid.status), `pay: ${paid.status}`);
}

/** One of the owner's orders as the Orders section reads it (proof, cards, history). */
const detailOf = async (who: TestOwner, orderId: string): Promise<any> =>
  ((await who.client.request('/api/order-details')).body.orders as Array<{ id: string }>).find((o) => o.id === orderId) ?? null;

/** The mean colour of the one image embedded in the PDF (the logo), as [r, g, b]. */
async function embeddedImageColour(pdfPath: string, prefix: string): Promise<number[]> {
  execFileSync('pdfimages', ['-f', '1', '-l', '1', '-png', pdfPath, join(work, prefix)]);
  const images = readdirSync(work).filter((f) => f.startsWith(`${prefix}-`));
  assert.equal(images.length, 1, 'the front carries one image: the logo');
  const { channels } = await sharp(join(work, images[0]!)).stats();
  return channels.slice(0, 3).map((c) => Math.round(c.mean));
}

describe('the proof of a team member’s card', () => {
  let system: TestSystem;
  let leader: TestOwner;
  let rep: TestOwner;

  beforeAll(async () => {
    system = await TestSystem.shared({ apps: ['identity', 'profiles', 'orders', 'payments', 'payfast-simulator', 'gateway'] });
    const staff = await createStaffAccount(system, { email: 'support@digicard.test', role: 'staff', username: 'support-desk' });
    leader = await registerOwner(
      system,
      { username: 'karoo-solar', firstName: 'Anele', lastName: 'Mthembu', email: 'anele@karoo.example' },
      { verify: false },
    );
    rep = await registerOwner(
      system,
      { username: 'sipho-k', firstName: 'Sipho', lastName: 'Khoza', email: 'sipho@karoo.example' },
      { verify: false },
    );

    // Each has a business name and logo of their own: the leader's red, the rep's (from before joining) green.
    for (const [who, businessName, colour] of [
      [leader, 'Karoo Solar', '#d01010'],
      [rep, 'Sipho Side Hustle', '#10a010'],
    ] as const) {
      const uploaded = await who.client.request('/api/profile/images/businessLogo', {
        method: 'POST',
        raw: await logo(colour),
        headers: { 'content-type': 'image/png' },
      });
      assert.equal(uploaded.status, 201, `logo upload: ${JSON.stringify(uploaded.body)}`);
      const own = (await who.client.request('/api/profile')).body;
      const saved = await who.client.request('/api/profile', {
        method: 'PUT',
        body: {
          document: { ...own.document, businessName, businessLogo: uploaded.body.url, title: who === rep ? 'Sales Consultant' : 'Founder' },
        },
      });
      assert.equal(saved.status, 200, `save: ${JSON.stringify(saved.body)}`);
    }
    const set = await staff.client.request(`/api/staff/accounts/${rep.accountId}/business`, {
      method: 'PUT',
      body: { businessUsername: 'karoo-solar' },
    });
    assert.equal(set.status, 200, `business set: ${JSON.stringify(set.body)}`);
  });
  afterAll(async () => {
    await system?.stop();
    rmSync(work, { recursive: true, force: true });
  });

  it('shows the business name and logo the rep inherits, never the rep’s own, with the rep’s name and title', async () => {
    const checkout = await rep.client.request('/api/orders', { body: { items: [{ id: 'pvc-card', colour: 'White', quantity: 1 }] } });
    assert.equal(checkout.status, 201, JSON.stringify(checkout.body));
    await pay(system, checkout.body.redirectUrl);
    const orderId: string = checkout.body.order.id;
    const ready = await waitFor(
      'the rep’s proof',
      async () => {
        const detail = await detailOf(rep, orderId);
        return detail?.status === 'proof-ready' ? detail : null;
      },
      30_000,
    );
    assert.deepEqual(
      ready.cards.map((c: { material: string; colour: string }) => [c.material, c.colour]),
      [['PVC', 'White']],
    );

    const pdf = await fetch(`${system.gatewayUrl}/api/orders/${orderId}/proof.pdf`, { headers: { cookie: rep.client.cookie ?? '' } });
    assert.equal(pdf.status, 200);
    const pdfPath = join(work, 'rep.pdf');
    writeFileSync(pdfPath, Buffer.from(await pdf.arrayBuffer()));
    const text = execFileSync('pdftotext', [pdfPath, '-'], { encoding: 'utf8' });
    assert.match(text, /Sipho Khoza/);
    assert.match(text, /Sales Consultant/);
    assert.match(text, /Karoo Solar/);
    assert.doesNotMatch(text, /Sipho Side Hustle/);
    const [r, g, b] = await embeddedImageColour(pdfPath, 'rep-logo');
    assert.ok(r! > 150 && g! < 80 && b! < 80, `the leader’s red logo, not the rep’s green one: rgb(${r}, ${g}, ${b})`);

    // The business changes its name before the rep approves: the rep's proof is rendered again with it.
    const own = (await leader.client.request('/api/profile')).body;
    assert.equal(
      (
        await leader.client.request('/api/profile', {
          method: 'PUT',
          body: { document: { ...own.document, businessName: 'Karoo Solar & Storage' } },
        })
      ).status,
      200,
    );
    await waitFor(
      'the rep’s proof rendered again',
      async () => {
        const detail = await detailOf(rep, orderId);
        return detail?.proof?.version === 2 && detail.proof.status === 'ready' ? detail : null;
      },
      30_000,
    );
    const again = await fetch(`${system.gatewayUrl}/api/orders/${orderId}/proof.pdf`, { headers: { cookie: rep.client.cookie ?? '' } });
    const againPath = join(work, 'rep-again.pdf');
    writeFileSync(againPath, Buffer.from(await again.arrayBuffer()));
    assert.match(execFileSync('pdftotext', [againPath, '-'], { encoding: 'utf8' }), /Karoo Solar & Storage/);
  });

  it('the special offer refuses a colour its special does not come in before any account is made', async () => {
    const visitor = system.client();
    const account = {
      username: 'zola-m',
      firstName: 'Zola',
      lastName: 'Mbeki',
      email: 'zola@example.co.za',
      password: 'a quiet harbour at dusk',
    };
    const refused = await visitor.request('/api/registration', {
      body: { account, items: [{ id: 'ssteel-special', colour: 'Rose', quantity: 1 }] },
    });
    assert.equal(refused.status, 400);
    assert.deepEqual(refused.body.fieldErrors, {
      'items.0.colour': ['The Stainless Steel NFC Card Special comes in Silver, Gold or Black.'],
    });
    assert.deepEqual(await system.sql("SELECT 1 FROM identity.accounts WHERE username = 'zola-m'"), []);
  });

  it('the leader’s own card shows the leader’s business and logo', async () => {
    const checkout = await leader.client.request('/api/orders', { body: { items: [{ id: 'pvc-card', colour: 'Black', quantity: 1 }] } });
    assert.equal(checkout.status, 201, JSON.stringify(checkout.body));
    await pay(system, checkout.body.redirectUrl);
    const orderId: string = checkout.body.order.id;
    await waitFor('the leader’s proof', async () => ((await detailOf(leader, orderId))?.status === 'proof-ready' ? true : null), 30_000);
    const pdf = await fetch(`${system.gatewayUrl}/api/orders/${orderId}/proof.pdf`, { headers: { cookie: leader.client.cookie ?? '' } });
    const pdfPath = join(work, 'leader.pdf');
    writeFileSync(pdfPath, Buffer.from(await pdf.arrayBuffer()));
    assert.match(execFileSync('pdftotext', [pdfPath, '-'], { encoding: 'utf8' }), /Anele Mthembu[\s\S]*Founder[\s\S]*Karoo Solar/);
    const [r, g, b] = await embeddedImageColour(pdfPath, 'leader-logo');
    assert.ok(r! > 150 && g! < 80 && b! < 80, `the leader’s red logo: rgb(${r}, ${g}, ${b})`);
  });
});

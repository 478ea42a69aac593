import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { InProcessGateway } from './support/in-process-gateway.js';
import { ServicesBehind } from './support/services-behind.js';

/** The gateway and the orders service in the test's process, orders on the gateway's NATS server with its own database. */
describe('the catalogue: owned by orders, seeded by a migration, served through the gateway', () => {
  let system: InProcessGateway;
  let services: ServicesBehind;
  const orders = () => services.get('orders');

  beforeAll(async () => {
    system = await InProcessGateway.start();
    services = await ServicesBehind.start(system, ['orders']);
  });
  afterAll(async () => {
    await services?.stop();
    await system?.stop();
  });

  it('lists the three cards and three specials with the spec’s prices in cents', async () => {
    const res = await system.api('/api/catalogue');
    assert.equal(res.status, 200);
    const prices = res.body.items.map((i: any) => [i.id, i.kind, i.normalPrice, i.specialPrice]);
    assert.deepEqual(prices, [
      ['pvc-card', 'accessory', 36900, null],
      ['bamboo-card', 'accessory', 45900, null],
      ['ssteel-card', 'accessory', 56900, null],
      ['pvc-special', 'special', 119700, 89900],
      ['bamboo-special', 'special', 138700, 109900],
      ['ssteel-special', 'special', 151700, 119900],
    ]);
    for (const item of res.body.items) {
      assert.equal(item.dimensions, '85.6 x 54 x 0.76 mm (bank-card size)');
      assert.equal(item.weight, '5.8 g');
      assert.equal(item.temp, '-25 to 70 °C');
      assert.equal(item.storeTemp, '-55 to 125 °C');
      assert.equal(item.years, 'Up to 10 years');
      assert.equal(item.readRange, 'Up to 10 cm');
      assert.ok(item.images.length >= 2 && item.images.every((i: any) => i.alt.length > 5));
      assert.equal(item.path, `/${item.kind === 'special' ? 'specials' : 'accessories'}/${item.id}`);
    }
    const colours = Object.fromEntries(res.body.items.map((i: any) => [i.id, i.colors]));
    assert.deepEqual(colours['pvc-card'], ['Black', 'White']);
    assert.deepEqual(colours['bamboo-card'], ['Bamboo']);
    assert.deepEqual(colours['ssteel-card'], ['Silver', 'Gold', 'Black']);
    // The spec (section 1): "specials that bundle a card with 12 months of DigiGold (for PVC and stainless steel; not
    // stated for bamboo)": the Bamboo special includes no DigiGold months, and its page says so.
    const months = Object.fromEntries(res.body.items.map((i: any) => [i.id, i.includedGoldMonths]));
    assert.deepEqual([months['pvc-special'], months['bamboo-special'], months['ssteel-special']], [12, 0, 12]);
    assert.ok(
      ['pvc-card', 'bamboo-card', 'ssteel-card'].every((id) => !months[id]),
      'a card alone includes no membership',
    );
  });

  it('answers one item, with five minutes of caching, and 404 "Card not found" for an unknown id', async () => {
    const res = await fetch(`${system.gatewayUrl}/api/catalogue/ssteel-special`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('cache-control'), 'public, max-age=300');
    assert.equal(((await res.json()) as { includedGoldMonths: number }).includedGoldMonths, 12);
    for (const id of ['gold-card', 'PVC-CARD', 'pvc card', '..%2F..%2Fetc']) {
      const missing = await system.api(`/api/catalogue/${id}`);
      assert.equal(missing.status, 404, id);
      assert.equal(missing.body.message, 'Card not found');
    }
  });

  it('answers the item pages of the web app with 200, and 404 for ids the catalogue does not have', async () => {
    for (const path of ['/accessories/pvc-card', '/specials/ssteel-special', '/pricing', '/accessories', '/cart', '/tedx_george']) {
      assert.equal((await fetch(`${system.gatewayUrl}${path}`)).status, 200, path);
    }
    for (const path of [
      '/accessories/gold-card',
      '/specials/pvc-card',
      '/accessories/pvc-special',
      '/specials/',
      '/accessories/pvc-card/x',
    ]) {
      assert.equal((await fetch(`${system.gatewayUrl}${path}`)).status, 404, path);
    }
  });

  it('sanitises the more-info HTML before it leaves the service', async () => {
    await orders().sql(`UPDATE orders.catalogue_items SET more_info = $1 WHERE id = 'pvc-card'`, [
      '<p onclick="steal()">Tough <b>card</b><script>alert(1)</script></p><a href="javascript:alert(1)">x</a><img src=x onerror=alert(1)><a href="https://example.co.za">ok</a>',
    ]);
    const { body } = await system.api('/api/catalogue/pvc-card');
    assert.equal(
      body.moreInfo,
      '<p>Tough <b>card</b></p><a rel="noopener noreferrer">x</a><a href="https://example.co.za" rel="noopener noreferrer">ok</a>',
    );
  });

  it('keeps the seed when the service starts again (migrations are safe to run twice)', async () => {
    await orders().restart();
    const [row] = await orders().sql<{ n: number }>('SELECT count(*)::int AS n FROM orders.catalogue_items');
    assert.equal(row!.n, 6);
    const { body } = await system.api('/api/catalogue/pvc-card');
    assert.match(body.moreInfo, /Tough/, 'the shop’s own edit survives the restart');
  });
});

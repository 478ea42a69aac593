import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { describe, it } from '@jest/globals';
import type { Plan, SiteConfig } from '@digicard/contracts';
import { WebIndex } from '../src/web/web-index.js';

// The pricing page as the gateway renders it (the web app's server bundle, apps/web/dist-ssr): its prices are the plans
// it was given (payments', through ServedPlans), embedded for the browser's first render; the page has none of its own.

const webDist = fileURLToPath(new URL('../../web/dist', import.meta.url));
const site: SiteConfig = { brandName: 'DigiCard', salesEmail: 'sales@digicard.co.za', whatsappNumber: '27821234567' };
const root = (html: string) => html.slice(html.indexOf('<div id="root"'), html.indexOf('</body>'));

async function pricingPage(plans: readonly Plan[] | null): Promise<string> {
  const index = await WebIndex.load(webDist, site);
  assert.ok(index.renderer, 'the web app is built (npx nx run web:build)');
  return index.page(await index.renderer.renderPage('/pricing', site, null, plans), null, plans);
}

describe('the pricing page rendered with the plans payments serves', () => {
  it('shows the prices it is given and embeds them (plans-data), whatever they are', async () => {
    const plans: Plan[] = [
      { tier: 'DigiShare', monthlyPriceCents: 0 },
      { tier: 'DigiSilver', monthlyPriceCents: 5300 },
      { tier: 'DigiGold', monthlyPriceCents: 7700 },
      { tier: 'DigiPlatinum', monthlyPriceCents: null },
    ];
    const html = await pricingPage(plans);
    for (const text of ['Free', 'R53.00 per month', 'R77.00 per month', 'Price on request']) assert.ok(root(html).includes(text), text);
    assert.ok(!root(html).includes('R49.00'), 'no price of the web app’s own');
    const data = html.match(/<script type="application\/json" id="plans-data">(.*?)<\/script>/)?.[1];
    assert.ok(data);
    assert.deepEqual(JSON.parse(data), { plans });
  });

  it('shows no price, and embeds none, when payments did not answer (the browser then asks GET /api/plans)', async () => {
    const html = await pricingPage(null);
    assert.match(root(html), /DigiGold/);
    assert.doesNotMatch(root(html), /per month|Price on request/);
    assert.ok(!html.includes('id="plans-data"'));
  });
});

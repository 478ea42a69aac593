import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { describe, it } from '@jest/globals';
import type { SiteConfig } from '@digicard/contracts';
import { WebIndex } from '../src/web/web-index.js';

// The /tedx_george page as the gateway renders it (the web app's server bundle, apps/web/dist-ssr): the community
// chat's button is there only when the deployment has the organisers' invite link (TEDX_GEORGE_COMMUNITY_URL).

const webDist = fileURLToPath(new URL('../../web/dist', import.meta.url));
const site: SiteConfig = { brandName: 'DigiCard', salesEmail: 'sales@digicard.co.za', whatsappNumber: '27821234567' };

async function tedxPage(config: SiteConfig): Promise<string> {
  const index = await WebIndex.load(webDist, config);
  assert.ok(index.renderer, 'the web app is built (npx nx run web:build)');
  return (await index.renderer.renderPage('/tedx_george', config, null)).html;
}

describe('the TEDx George community chat link', () => {
  it('is not shown while no invite link is configured (no button to a placeholder)', async () => {
    const html = await tedxPage(site);
    assert.match(html, /Join the community/);
    assert.doesNotMatch(html, /Join the WhatsApp community/);
    assert.doesNotMatch(html, /chat\.whatsapp\.com/);
  });

  it('is the configured invite link when there is one', async () => {
    const html = await tedxPage({ ...site, tedxGeorgeCommunityUrl: 'https://chat.whatsapp.com/AbCdEf123456' });
    assert.match(html, /<a[^>]+href="https:\/\/chat\.whatsapp\.com\/AbCdEf123456"[^>]*>Join the WhatsApp community/);
  });
});

import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { TestSystem, runXssCorpus, unescapedFields, type CorpusResult } from '@digicard/testing';

/** tools/security's XSS corpus through every profile field into the public page, the vCard and the emails. */
describe('XSS corpus: what people type never comes out as markup', () => {
  let system: TestSystem;
  let results: CorpusResult[];

  beforeAll(async () => {
    system = await TestSystem.shared({
      apps: ['mail-catcher', 'identity', 'profiles', 'orders', 'notifications', 'gateway'],
      env: { gateway: { RATE_LIMIT_REGISTER_IP: '1000/60', RATE_LIMIT_RESET_IP: '1000/60' } },
    });
    results = await runXssCorpus(system);
  }, 240_000);
  afterAll(() => system?.stop());

  it('recognises a payload that survived as markup, and not one that was escaped', () => {
    assert.deepEqual(unescapedFields(`<p>"><img src=x onerror=xss('title')></p><script>xss('bio')</script>`), ['bio', 'title']);
    assert.deepEqual(unescapedFields(`<p>&quot;&gt;&lt;img src=x onerror=xss('title')&gt;</p>\\u003cscript>xss('bio')`), []);
  });

  it('reaches the page, the vCard and every email it leads to', () => {
    const surfaces = results.map((r) => r.surface).sort();
    assert.deepEqual(surfaces, [
      'email: enquiry-received',
      'email: lead-captured',
      'email: reset-password',
      'email: verify-email',
      'public profile page (HTML)',
      'vCard',
    ]);
    const carried = Object.fromEntries(results.map((r) => [r.surface, r.carried]));
    for (const [surface, fields] of Object.entries(carried)) assert.ok(fields.length > 0, `${surface}: no payload reached it`);
    for (const field of ['title', 'profileBio', 'businessName', 'wl.name', 'wl.url', 'product.name', 'firstName']) {
      assert.ok(
        carried['public profile page (HTML)']?.includes(field),
        `the page shows ${field}: ${carried['public profile page (HTML)']?.join(', ')}`,
      );
    }
    for (const field of ['title', 'businessName', 'firstName']) assert.ok(carried['vCard']?.includes(field), `the vCard carries ${field}`);
    for (const field of ['lead.firstName', 'lead.message'])
      assert.ok(carried['email: lead-captured']?.includes(field), `the lead email carries ${field}`);
    assert.ok(carried['email: verify-email']?.includes('firstName'));
    assert.ok(carried['email: enquiry-received']?.includes('message.message'));
  });

  it('leaves no payload unescaped anywhere and adds no vCard property', () => {
    const findings = results.flatMap((r) => [
      ...r.unescaped.map((field) => `${r.surface}: ${field} unescaped`),
      ...(r.injectedLines ?? []).map((line) => `${r.surface}: injected line ${JSON.stringify(line)}`),
    ]);
    assert.deepEqual(findings, []);
  });
});

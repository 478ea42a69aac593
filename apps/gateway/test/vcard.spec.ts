import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { ProfileDefaults, type PublicProfile } from '@digicard/contracts';
import { buildVcard, escapeVcard } from '../src/profiles/vcard.js';

const profile = (over: Partial<PublicProfile['document']>): PublicProfile => ({
  username: 'thabo',
  firstName: 'Thabo',
  lastName: 'Mokoena',
  email: 'thabo@example.co.za',
  membership: 'DigiShare',
  features: { socialLinks: false, leadForm: false, gallery: false, video: false, products: false, shareContact: false },
  document: { ...ProfileDefaults, ...over },
  updatedAt: '2030-03-14T09:26:53.000Z',
});

describe('vCard text values', () => {
  it('escape every kind of line break, so no value can start a property of its own', () => {
    assert.equal(escapeVcard('a\r\nb\nc\rTEL:0820000000'), 'a\\nb\\nc\\nTEL:0820000000');
    assert.equal(escapeVcard('Acme, Inc; "Durban" \\ KZN'), 'Acme\\, Inc\\; "Durban" \\\\ KZN');
  });

  it('keep a lone carriage return in a title out of the card’s lines', () => {
    const card = buildVcard({
      profile: profile({ title: 'Sales\rTEL;TYPE=WORK:0860000000' }),
      profileUrl: 'https://digicard.example/thabo',
    });
    const lines = card.split('\r\n');
    assert.ok(!card.replace(/\r\n/g, '').includes('\r'), 'no bare carriage return');
    assert.ok(lines.includes('TITLE:Sales\\nTEL\\;TYPE=WORK:0860000000'));
    assert.equal(lines.filter((l) => l.startsWith('TEL')).length, 0, 'no telephone property was injected');
  });
});

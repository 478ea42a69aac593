import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { InProcessGateway } from './support/in-process-gateway.js';
import { withinOneWindow } from '@digicard/testing';

/**
 * Exchange Contact and Get your own Profile email whatever address is typed in (issue 28 item 12): besides the limit
 * per client address, the route table limits submissions per profile and per address emailed. Counted before the
 * profiles service is asked (which is not running here: what is under the limit answers 503), so the limits alone
 * are what this shows: the gateway alone, in the test's process.
 */
describe('lead submissions: limited per profile and per address emailed, whoever sends them', () => {
  let system: InProcessGateway;
  let n = 0;
  /** Each submission from a new client address, so the per-address limit never applies. */
  const submit = (username: string, email: string) => {
    n += 1;
    return fetch(`${system.gatewayUrl}/api/profiles/${username}/leads`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        origin: system.gatewayUrl,
        'sec-fetch-site': 'same-origin',
        'x-forwarded-for': `198.51.100.${n}`,
      },
      body: JSON.stringify({
        kind: 'exchange',
        firstName: 'Visitor',
        lastName: 'Spam',
        email,
        phone: '',
        message: '',
        consent: true,
        sendCard: true,
      }),
    });
  };

  beforeAll(async () => {
    system = await InProcessGateway.start({
      TRUST_PROXY: '1',
      ENQUIRY_RATE_LIMIT: '2/600',
      RATE_LIMIT_LEAD_PROFILE: '3/600',
      RATE_LIMIT_LEAD_EMAIL: '2/600',
    });
  });
  afterAll(() => system?.stop());

  it('refuses the fourth submission to one profile from anywhere, and counts another profile on its own', async () => {
    // Fixed 600 s windows: this file's submissions all in one.
    await withinOneWindow(600, 60);
    for (let i = 0; i < 3; i += 1) assert.notEqual((await submit('thabo', `person-${i}@example.co.za`)).status, 429, `submission ${i + 1}`);
    const over = await submit('thabo', 'person-9@example.co.za');
    assert.equal(over.status, 429, 'a new address, a new client: the profile’s own limit');
    assert.ok(Number(over.headers.get('retry-after')) > 0);
    assert.notEqual((await submit('lerato', 'person-10@example.co.za')).status, 429);
  });

  it('refuses the third submission emailing one address, whatever profile and client send it', async () => {
    assert.notEqual((await submit('naledi', 'victim@example.co.za')).status, 429);
    assert.notEqual((await submit('sipho', 'Victim@Example.co.za ')).status, 429);
    assert.equal((await submit('zanele', 'victim@example.co.za')).status, 429);
    assert.notEqual((await submit('zanele', 'someone-else@example.co.za')).status, 429);
  });
});

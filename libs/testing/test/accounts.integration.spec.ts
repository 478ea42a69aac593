import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { ApiClient } from '../src/client.js';
import { registerOwner } from '../src/accounts.js';

/**
 * A local HTTP server in the gateway's place, whose profile is made at once but marked verified only at the fourth
 * read: as when profiles handles `user.registered` before `user.verified` (two consumers, in either order).
 */
describe('registerOwner returns once profiles has the owner verified, not only the profile made', () => {
  let server: Server;
  let baseUrl = '';
  const profileReads: boolean[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
        res.writeHead(status, { 'content-type': 'application/json', ...headers });
        res.end(JSON.stringify(body));
      };
      req.resume();
      req.on('end', () => {
        if (req.url === '/api/accounts') return send(201, { message: 'registered' });
        if (req.url === '/api/email-verification') return send(200, { csrfToken: 'csrf' }, { 'set-cookie': 'sid=s1; Path=/' });
        if (req.url === '/api/session') return send(200, { user: { id: 'account-1' }, csrfToken: 'csrf' });
        if (req.url === '/api/profile') {
          const isVerified = profileReads.length >= 3;
          profileReads.push(isVerified);
          return send(200, { username: 'racer', isVerified });
        }
        send(404, {});
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  it('reads the profile until it is verified', async () => {
    const mail = {
      waitFor: () =>
        Promise.resolve({
          to: ['racer@example.co.za'],
          subject: 'Verify your email',
          text: 'Open http://localhost/verify-email?token=abc_123 to verify.',
        }),
    };
    const owner = await registerOwner(
      { client: () => new ApiClient(baseUrl), mail: mail as never },
      { username: 'racer', firstName: 'Race', lastName: 'Condition', email: 'racer@example.co.za' },
    );
    assert.equal(owner.accountId, 'account-1');
    assert.deepEqual(profileReads, [false, false, false, true], 'returned at the first read that shows the profile verified');
  });
});

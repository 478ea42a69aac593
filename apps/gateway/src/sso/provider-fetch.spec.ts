import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { providerFetch, refusedPrivateAddress } from './provider-fetch.js';

// DNS rebinding against a team's provider: a name that answers an allowed address to the check and a private one to
// the connection. Two servers on one port of this machine stand for the two: 127.0.0.2 is the address the check
// allows (a stand-in for a public one), 127.0.0.1 the inside, where the system resolves `localhost` to.

function listen(host: string, port: number, name: string, hits: string[]): Promise<Server> {
  const server = createServer((req, res) => {
    hits.push(name);
    res.setHeader('connection', 'close');
    res.end(name);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve(server));
  });
}

describe('providerFetch: the connection goes to the address that was checked', () => {
  const hits: string[] = [];
  let checked: Server;
  let inside: Server;
  let port: number;

  beforeAll(async () => {
    checked = await listen('127.0.0.2', 0, 'checked', hits);
    port = (checked.address() as AddressInfo).port;
    inside = await listen('127.0.0.1', port, 'inside', hits);
  });
  afterAll(async () => {
    for (const server of [checked, inside]) await new Promise((resolve) => server?.close(resolve));
  });

  const allowed = (address: string) => address === '127.0.0.2';

  it('connects where the checked answer points, not where the name points a moment later; the rebound answer is refused', async () => {
    let asked = 0;
    // The attacker's DNS: the allowed address first, the inside one from then on.
    const rebinding = (hostname: string) => {
      assert.equal(hostname, 'localhost');
      asked++;
      return Promise.resolve([{ address: asked === 1 ? '127.0.0.2' : '127.0.0.1', family: 4 }]);
    };
    const fetch = providerFetch(false, rebinding, allowed);
    const first = await fetch(`http://localhost:${port}/.well-known/openid-configuration`, { method: 'GET', headers: {} } as never);
    assert.equal(await first.text(), 'checked');
    const second = await fetch(`http://localhost:${port}/jwks`, { method: 'GET', headers: {} } as never).then(
      () => assert.fail('the rebound name was fetched'),
      (error: unknown) => error,
    );
    assert.ok(refusedPrivateAddress(second), String(second));
    assert.deepEqual(hits, ['checked'], 'nothing inside was reached');
    assert.equal(asked, 2, 'one resolution per connection: the one that was checked');
  });

  it('refuses an IP literal that is not allowed, and a name with any address not allowed, before connecting', async () => {
    hits.length = 0;
    const fetch = providerFetch(
      false,
      () =>
        Promise.resolve([
          { address: '127.0.0.2', family: 4 },
          { address: '127.0.0.1', family: 4 },
        ]),
      allowed,
    );
    for (const url of [`http://127.0.0.1:${port}/`, `http://[::1]:${port}/`, `http://localhost:${port}/`]) {
      const error = await fetch(url, { method: 'GET', headers: {} } as never).then(
        () => assert.fail(url),
        (e: unknown) => e,
      );
      assert.ok(refusedPrivateAddress(error), `${url}: ${String(error)}`);
    }
    assert.deepEqual(hits, []);
  });
});

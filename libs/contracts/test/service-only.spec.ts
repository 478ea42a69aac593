import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { BusUsers, Rpc, busPermissions } from '../src/index.js';

// A service asking about another account than the caller's uses a service-only query naming the account in its body:
// only the NATS users of the services that need it may send it; never the gateway (so no browser request reaches it).

describe('profileOfAccount', () => {
  it('is service-only, and only orders and notifications may ask it', () => {
    assert.equal(Rpc.profileOfAccount.access, 'service');
    const allowed = BusUsers.filter((user) => busPermissions(user).publish.includes(Rpc.profileOfAccount.subject));
    assert.deepEqual(allowed.sort(), ['notifications', 'orders']);
  });

  it('names the account in the body: a request without one is refused', () => {
    assert.equal(Rpc.profileOfAccount.request.safeParse({}).success, false);
    assert.equal(Rpc.profileOfAccount.request.safeParse({ accountId: 'not-a-uuid' }).success, false);
    assert.equal(Rpc.profileOfAccount.request.safeParse({ accountId: '7d1f6c1e-4a51-4a8e-9d53-1f0b7c3c2a10' }).success, true);
  });

  it('leaves getOwnProfile to a caller asking about itself: no service that acts for other accounts may send it', () => {
    for (const user of ['orders', 'notifications'] as const)
      assert.ok(!busPermissions(user).publish.includes(Rpc.getOwnProfile.subject), user);
  });
});

describe('accountById and mediaOfAccount', () => {
  it('are service-only: accountById for notifications, mediaOfAccount for orders, never the gateway', () => {
    const allowed = (subject: string) => BusUsers.filter((user) => busPermissions(user).publish.includes(subject)).sort();
    assert.equal(Rpc.accountById.access, 'service');
    assert.equal(Rpc.mediaOfAccount.access, 'service');
    assert.deepEqual(allowed(Rpc.accountById.subject), ['notifications']);
    assert.deepEqual(allowed(Rpc.mediaOfAccount.subject), ['orders']);
  });

  it('name the account in the body: a request without one is refused', () => {
    const accountId = '7d1f6c1e-4a51-4a8e-9d53-1f0b7c3c2a10';
    assert.equal(Rpc.accountById.request.safeParse({}).success, false);
    assert.equal(Rpc.accountById.request.safeParse({ accountId }).success, true);
    assert.equal(Rpc.mediaOfAccount.request.safeParse({ id: 'logo_abcdefghij' }).success, false);
    assert.equal(Rpc.mediaOfAccount.request.safeParse({ id: 'logo_abcdefghij', accountId: 'someone' }).success, false);
    assert.equal(Rpc.mediaOfAccount.request.safeParse({ id: 'logo_abcdefghij', accountId }).success, true);
  });

  it('leave getMedia to visitors and owners: orders, which prints for other accounts, may not send it', () => {
    assert.ok(!busPermissions('orders').publish.includes(Rpc.getMedia.subject));
  });
});

describe('the company sign-in subjects asked before a session exists', () => {
  it('only the gateway may send them (no service lists them), so only its SSO flow and its password sign-in reach them', () => {
    for (const rpc of [Rpc.ssoSignIn, Rpc.findSsoProvider, Rpc.ssoAccountState]) {
      const allowed = BusUsers.filter((user) => busPermissions(user).publish.includes(rpc.subject));
      assert.equal(allowed.join(','), 'gateway', rpc.subject);
    }
  });

  it('the leader’s settings subjects are team leaders’ only', () => {
    for (const rpc of [Rpc.getSsoSettings, Rpc.saveSsoSettings, Rpc.removeSsoSettings]) assert.equal(String(rpc.access), 'teamLeader');
  });
});

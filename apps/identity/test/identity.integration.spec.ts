import { createHash, randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { AccountMessages, Events, Rpc, type RegisterRequest, type SessionUser } from '@digicard/contracts';
import { newEmailToken } from '@digicard/server';
import { InProcessService } from '@digicard/service-testing';
import type { Config } from '../src/config.js';
import { identityService } from '../src/service.js';
import { Authenticate } from '../src/accounts/use-cases/authenticate.use-case.js';
import { DeleteAccount } from '../src/accounts/use-cases/delete-account.use-case.js';
import { IssueEmailToken } from '../src/accounts/use-cases/issue-email-token.use-case.js';
import { RegisterAccount } from '../src/accounts/use-cases/register-account.use-case.js';
import { RequestPasswordReset } from '../src/accounts/use-cases/request-password-reset.use-case.js';
import { ResetPassword } from '../src/accounts/use-cases/reset-password.use-case.js';
import { VerifyEmail } from '../src/accounts/use-cases/verify-email.use-case.js';

// The identity service in this process, on a fresh database and its own NATS server: its use cases with their real
// repository and argon2 hashing, and its subjects over NATS with their access rules.

let service: InProcessService<Config>;

const PASSWORD = 'kudu-braai-2026';

/** A sign-up as the gateway sends it (the contract lower-cases the username before the service sees it). */
const signUp = (username: string, overrides: Partial<RegisterRequest> = {}): RegisterRequest => ({
  username,
  firstName: username[0]!.toUpperCase() + username.slice(1),
  lastName: 'Mokoena',
  email: `${username}@example.test`,
  password: PASSWORD,
  ...overrides,
});

/** Registers a new account and answers it as `getAccount` does. */
async function register(username: string, overrides: Partial<RegisterRequest> = {}): Promise<SessionUser> {
  const { accountId } = await service.get(RegisterAccount).execute(signUp(username, overrides));
  if (!accountId) throw new Error(`${username}: that email has an account already`);
  const account = await service.call(Rpc.getAccount, {}, { accountId });
  if (!account.ok) throw new Error(`${username}: not found after registering`);
  return account.value as SessionUser;
}

/** A token as the notifications service gets it for an email link. */
async function tokenFor(accountId: string, purpose: 'verify-email' | 'reset-password'): Promise<string> {
  const { token, tokenHash } = newEmailToken();
  const issued = await service.get(IssueEmailToken).execute(accountId, purpose, tokenHash);
  if (!issued) throw new Error(`no ${purpose} token issued for ${accountId}`);
  return token;
}

const eventsOf = async (event: { subject: string }, accountId: string) =>
  (await service.recordedEvents<{ accountId: string }>(event.subject)).filter((e) => e.data.accountId === accountId);

const refusal = (statusCode: number, code: string, message: string) => ({ body: { statusCode, code, message } });
const linkInvalid = refusal(400, 'LINK_INVALID', AccountMessages.linkInvalid);

beforeAll(async () => {
  service = await InProcessService.start(identityService);
});

afterAll(async () => {
  await service.stop();
});

describe('register', () => {
  it('stores the account with an argon2id hash and records identity.user.registered without any secret', async () => {
    const user = await register('naledi');
    expect(user).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      username: 'naledi',
      email: 'naledi@example.test',
      firstName: 'Naledi',
      lastName: 'Mokoena',
      role: 'user',
      isVerified: false,
    });
    const [stored] = await service.sql<{ password_hash: string; email_normalized: string }>(
      'SELECT password_hash, email_normalized FROM identity.accounts WHERE id = $1',
      [user.id],
    );
    expect(stored!.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,p=1,t=2\$/);
    expect(stored!.email_normalized).toBe('naledi@example.test');

    const [registered, ...more] = await eventsOf(Events.userRegistered, user.id);
    expect(more).toHaveLength(0);
    expect(registered!.data).toEqual({
      accountId: user.id,
      username: 'naledi',
      email: 'naledi@example.test',
      firstName: 'Naledi',
      lastName: 'Mokoena',
      role: 'user',
      registeredAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    const outbox = JSON.stringify(await service.sql('SELECT payload FROM identity.outbox'));
    expect(outbox).not.toContain(PASSWORD);
    expect(outbox).not.toContain('argon2');
  });

  it('refuses a taken username and a common password, with the field error', async () => {
    await register('sipho');
    const taken = await service.call(Rpc.register, signUp('sipho', { email: 'other-sipho@example.test' }));
    expect(taken).toEqual({
      ok: false,
      status: 400,
      code: 'VALIDATION_FAILED',
      message: 'Please correct the highlighted fields.',
      fieldErrors: { username: [AccountMessages.usernameTaken] },
    });
    const common = await service.call(Rpc.register, signUp('thandeka', { password: 'password123' }));
    expect(common).toMatchObject({ ok: false, status: 400, fieldErrors: { password: [AccountMessages.commonPassword] } });
    const names = await service.sql<{ username: string }>(
      "SELECT username FROM identity.accounts WHERE username IN ('sipho', 'sipho2', 'thandeka')",
    );
    expect(names.map((r) => r.username)).toEqual(['sipho']);
  });

  it('never says an email is taken: nothing is created, the answer has no account, and the owner is to be emailed', async () => {
    const owner = await register('palesa');
    const accountsBefore = (await service.sql('SELECT id FROM identity.accounts')).length;
    const sameEmail = await service.call(
      Rpc.register,
      signUp('palesa2', { email: 'PALESA@Example.test', password: 'another long passphrase' }),
    );
    expect(sameEmail).toEqual({ ok: true, value: { accountId: null } });
    expect(await service.sql('SELECT id FROM identity.accounts')).toHaveLength(accountsBefore);
    const attempts = await eventsOf(Events.registrationAttempted, owner.id);
    expect(attempts.map((e) => e.data)).toEqual([{ accountId: owner.id, attemptedAt: expect.stringMatching(/^\d{4}-/) }]);
    // Nothing the stranger typed is recorded, and the owner's password still works.
    expect(JSON.stringify(await service.sql('SELECT payload FROM identity.outbox'))).not.toContain('another long passphrase');
    await expect(service.get(Authenticate).execute({ email: 'palesa@example.test', password: PASSWORD })).resolves.toMatchObject({
      id: owner.id,
    });
    // A new email still gets its account.
    expect(await service.call(Rpc.register, signUp('palesa3'))).toEqual({
      ok: true,
      value: { accountId: expect.stringMatching(/^[0-9a-f-]{36}$/) },
    });
  });

  it('passes the special offer’s specials on in a new account’s event only; an email with an account gets none of it', async () => {
    const specials = [{ id: 'pvc-special', quantity: 2 }];
    const created = await service.call(Rpc.register, { ...signUp('lindiwe'), specials });
    if (!created.ok || !created.value.accountId) throw new Error(JSON.stringify(created));
    const [registered] = await eventsOf(Events.userRegistered, created.value.accountId);
    expect(registered!.data).toMatchObject({ accountId: created.value.accountId, username: 'lindiwe', specials });

    const registeredBefore = (await service.recordedEvents(Events.userRegistered.subject)).length;
    const taken = await service.call(Rpc.register, {
      ...signUp('lindiwe2', { email: 'LINDIWE@example.test', password: 'another long passphrase' }),
      specials,
    });
    expect(taken).toEqual({ ok: true, value: { accountId: null } });
    expect(await service.recordedEvents(Events.userRegistered.subject)).toHaveLength(registeredBefore);
    const attempts = await eventsOf(Events.registrationAttempted, created.value.accountId);
    expect(attempts.map((e) => e.data)).toEqual([{ accountId: created.value.accountId, attemptedAt: expect.any(String) }]);
    expect(
      JSON.stringify(await service.sql('SELECT payload FROM identity.outbox WHERE subject = $1', [Events.registrationAttempted.subject])),
    ).not.toContain('pvc-special');
  });

  it('lets the unique index decide between two sign-ups racing for one email: one account, one attempt for its owner', async () => {
    const results = await Promise.all([
      service.get(RegisterAccount).execute(signUp('twin-a', { email: 'twin@example.test' })),
      service.get(RegisterAccount).execute(signUp('twin-b', { email: 'TWIN@example.test' })),
    ]);
    const created = results.filter((r) => r.accountId !== null);
    expect(created).toHaveLength(1);
    expect(results.filter((r) => r.accountId === null)).toHaveLength(1);
    expect(await eventsOf(Events.registrationAttempted, created[0]!.accountId!)).toHaveLength(1);
  });

  it('lets the unique index decide between two sign-ups racing for one username', async () => {
    const results = await Promise.allSettled([
      register('racer', { email: 'racer-1@example.test' }),
      register('racer', { email: 'racer-2@example.test' }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    const lost = results.find((r) => r.status === 'rejected');
    expect(lost?.reason).toMatchObject({ body: { statusCode: 400, fieldErrors: { username: [AccountMessages.usernameTaken] } } });
  });

  it('answers field errors for a body that breaks the contract, before any rule of its own', async () => {
    const answer = await service.call(Rpc.register, { ...signUp('x'), password: 'short' });
    expect(answer).toMatchObject({ ok: false, status: 400, code: 'VALIDATION_FAILED' });
    if (!answer.ok) expect(Object.keys(answer.fieldErrors ?? {}).sort()).toEqual(['body.password', 'body.username']);
  });
});

describe('authenticate', () => {
  it('answers an unknown email and a wrong password alike, so nobody learns who has an account, and signs in with the right one', async () => {
    const user = await register('lerato');
    const authenticate = service.get(Authenticate);
    const same = refusal(401, 'AUTH_INVALID_CREDENTIALS', AccountMessages.invalidCredentials);
    await expect(authenticate.execute({ email: 'nobody@example.test', password: PASSWORD })).rejects.toMatchObject(same);
    await expect(authenticate.execute({ email: 'lerato@example.test', password: 'not-the-password' })).rejects.toMatchObject(same);
    expect(await service.call(Rpc.authenticate, { email: 'nobody@example.test', password: PASSWORD })).toEqual(
      await service.call(Rpc.authenticate, { email: 'lerato@example.test', password: 'not-the-password' }),
    );
    await expect(authenticate.execute({ email: 'LERATO@example.TEST', password: PASSWORD })).resolves.toEqual(user);
    expect(await service.call(Rpc.authenticate, { email: ' lerato@example.test ', password: PASSWORD })).toEqual({ ok: true, value: user });
  });

  it('spends as long on an unknown email as on checking a password', async () => {
    await register('timing');
    const authenticate = service.get(Authenticate);
    const timeOf = async (email: string): Promise<number> => {
      const started = performance.now();
      await authenticate.execute({ email, password: 'not-the-password' }).catch(() => undefined);
      return performance.now() - started;
    };
    await timeOf('warm-up@example.test');
    const unknown: number[] = [];
    const wrong: number[] = [];
    for (let i = 0; i < 3; i++) {
      unknown.push(await timeOf('nobody-at-all@example.test'));
      wrong.push(await timeOf('timing@example.test'));
    }
    // An argon2id check takes tens of milliseconds; a lookup alone, a millisecond or two.
    expect(Math.min(...wrong)).toBeGreaterThan(10);
    expect(Math.min(...unknown)).toBeGreaterThan(Math.min(...wrong) * 0.3);
  });
});

describe('email verification', () => {
  it('verifies with a good token once, recording identity.user.verified; a used token is refused', async () => {
    const user = await register('kagiso');
    const token = await tokenFor(user.id, 'verify-email');
    const verified = await service.get(VerifyEmail).execute(token, null);
    expect(verified).toEqual({ ...user, isVerified: true });
    const events = await eventsOf(Events.userVerified, user.id);
    expect(events.map((e) => e.data)).toEqual([{ accountId: user.id, verifiedAt: expect.stringMatching(/^\d{4}-/) }]);
    await expect(service.get(VerifyEmail).execute(token, null)).rejects.toMatchObject(linkInvalid);
    expect(await eventsOf(Events.userVerified, user.id)).toHaveLength(1);
  });

  it('refuses an expired token, an unknown one and a reset token, and leaves the account unverified', async () => {
    const user = await register('anele');
    const token = await tokenFor(user.id, 'verify-email');
    await service.sql("UPDATE identity.email_tokens SET expires_at = now() - interval '1 minute' WHERE token_hash = $1", [
      createHash('sha256').update(token).digest('hex'),
    ]);
    await expect(service.get(VerifyEmail).execute(token, null)).rejects.toMatchObject(linkInvalid);
    await expect(service.get(VerifyEmail).execute(randomBytes(16).toString('base64url'), null)).rejects.toMatchObject(linkInvalid);
    await expect(service.get(VerifyEmail).execute(await tokenFor(user.id, 'reset-password'), null)).rejects.toMatchObject(linkInvalid);
    expect(await service.call(Rpc.verifyEmail, { token })).toMatchObject({
      ok: false,
      status: 400,
      code: 'LINK_INVALID',
      message: AccountMessages.linkInvalid,
    });
    expect(await service.call(Rpc.getAccount, {}, { accountId: user.id })).toMatchObject({ ok: true, value: { isVerified: false } });
    expect(await eventsOf(Events.userVerified, user.id)).toHaveLength(0);
  });
});

describe('links opened while signed in to another account (issue 28 item 11)', () => {
  const otherAccount = { ok: false, status: 409, code: 'LINK_FOR_OTHER_ACCOUNT', message: AccountMessages.linkForOtherAccount };

  it('refuses another account’s verification link without spending it; its own account, or nobody, uses it', async () => {
    const signedIn = await register('lwazi');
    const owner = await register('mandla');
    const token = await tokenFor(owner.id, 'verify-email');
    expect(await service.call(Rpc.verifyEmail, { token }, { accountId: signedIn.id })).toEqual(otherAccount);
    expect(await service.call(Rpc.getAccount, {}, { accountId: owner.id })).toMatchObject({ ok: true, value: { isVerified: false } });
    expect(await eventsOf(Events.userVerified, owner.id)).toHaveLength(0);
    expect(await service.call(Rpc.verifyEmail, { token }, { accountId: owner.id })).toEqual({
      ok: true,
      value: { ...owner, isVerified: true },
    });
    const later = await register('mpho');
    const signedOut = await tokenFor(later.id, 'verify-email');
    expect(await service.call(Rpc.verifyEmail, { token: signedOut })).toMatchObject({ ok: true, value: { id: later.id } });
  });

  it('refuses another account’s reset link before the password is looked at, changing nothing', async () => {
    const signedIn = await register('nomsa');
    const owner = await register('olwethu');
    const token = await tokenFor(owner.id, 'reset-password');
    expect(await service.call(Rpc.resetPassword, { token, password: 'qwerty123' }, { accountId: signedIn.id })).toEqual(otherAccount);
    expect(await service.call(Rpc.resetPassword, { token, password: 'a-new-karoo-road' }, { accountId: signedIn.id })).toEqual(
      otherAccount,
    );
    expect(await eventsOf(Events.passwordChanged, owner.id)).toHaveLength(0);
    await expect(service.get(Authenticate).execute({ email: 'olwethu@example.test', password: PASSWORD })).resolves.toEqual(owner);
    expect(await service.call(Rpc.resetPassword, { token, password: 'a-new-karoo-road' })).toEqual({ ok: true, value: owner });
  });

  it('says whose a live link is, masking another account’s address, and spends nothing; signed out it is refused', async () => {
    const signedIn = await register('palesa-n', { email: 'Palesa.N@Example.co.za' });
    const owner = await register('refilwe', { email: 'Refilwe@Mail.Example.co.za' });
    const verify = await tokenFor(owner.id, 'verify-email');
    const reset = await tokenFor(owner.id, 'reset-password');
    const own = await tokenFor(signedIn.id, 'reset-password');
    const as = { accountId: signedIn.id };
    expect(await service.call(Rpc.checkEmailLink, { purpose: 'verify-email', token: verify }, as)).toEqual({
      ok: true,
      value: { forSignedInAccount: false, maskedEmail: 'r***@m***.za' },
    });
    expect(await service.call(Rpc.checkEmailLink, { purpose: 'reset-password', token: reset }, as)).toEqual({
      ok: true,
      value: { forSignedInAccount: false, maskedEmail: 'r***@m***.za' },
    });
    expect(await service.call(Rpc.checkEmailLink, { purpose: 'reset-password', token: own }, as)).toEqual({
      ok: true,
      value: { forSignedInAccount: true, maskedEmail: 'p***@e***.za' },
    });
    // A link checked for the other purpose, or never issued, is invalid; nobody signed in may not ask.
    expect(await service.call(Rpc.checkEmailLink, { purpose: 'reset-password', token: verify }, as)).toMatchObject({
      ok: false,
      status: 400,
      code: 'LINK_INVALID',
    });
    expect(
      await service.call(Rpc.checkEmailLink, { purpose: 'verify-email', token: randomBytes(16).toString('base64url') }, as),
    ).toMatchObject({ ok: false, status: 400, code: 'LINK_INVALID' });
    expect(await service.call(Rpc.checkEmailLink, { purpose: 'verify-email', token: verify })).toMatchObject({ ok: false, status: 401 });
    // Asking spent nothing: both links still work for their account.
    expect(await service.call(Rpc.verifyEmail, { token: verify })).toMatchObject({ ok: true, value: { id: owner.id } });
    expect(await service.call(Rpc.resetPassword, { token: reset, password: 'a-new-karoo-road' })).toMatchObject({ ok: true });
  });
});

describe('issue token (service calls)', () => {
  it('stores the hash it is given for the account named only; the token never crosses the bus', async () => {
    const a = await register('ayanda');
    const b = await register('bongani');
    const { token, tokenHash } = newEmailToken();
    const issued = await service.call(Rpc.issueVerificationToken, { accountId: b.id, tokenHash });
    expect(issued).toEqual({
      ok: true,
      value: { email: 'bongani@example.test', firstName: 'Bongani', expiresAt: expect.stringMatching(/^\d{4}-/) },
    });
    if (!issued.ok || !issued.value) throw new Error('no token');
    expect(JSON.stringify(issued)).not.toContain(token);
    const lifetime = Date.parse(issued.value.expiresAt) - Date.now();
    expect(lifetime).toBeGreaterThan(23.9 * 3600_000);
    expect(lifetime).toBeLessThanOrEqual(24 * 3600_000);
    const stored = await service.sql<{ account_id: string; purpose: string; token_hash: string }>(
      'SELECT account_id, purpose, token_hash FROM identity.email_tokens WHERE account_id IN ($1, $2)',
      [a.id, b.id],
    );
    expect(stored).toEqual([{ account_id: b.id, purpose: 'verify-email', token_hash: createHash('sha256').update(token).digest('hex') }]);
    expect(JSON.stringify(await service.sql('SELECT payload FROM identity.outbox'))).not.toContain(token);
    // The caller's retry (its first call timed out) sends the same hash: the same answer, still one token.
    expect(await service.call(Rpc.issueVerificationToken, { accountId: b.id, tokenHash })).toEqual(issued);
    expect(await service.sql('SELECT 1 FROM identity.email_tokens WHERE account_id = $1', [b.id])).toHaveLength(1);
    // A hash already stored for B cannot be claimed for A, nor for another purpose.
    expect(await service.call(Rpc.issueVerificationToken, { accountId: a.id, tokenHash })).toMatchObject({ ok: false, status: 409 });
    expect(await service.call(Rpc.issuePasswordResetToken, { accountId: b.id, tokenHash })).toMatchObject({ ok: false, status: 409 });
    // Anything but a SHA-256 in hex is refused at the edge.
    expect(await service.call(Rpc.issueVerificationToken, { accountId: b.id, tokenHash: token })).toMatchObject({ ok: false, status: 400 });
    // The token verifies B, and only B.
    await service.get(VerifyEmail).execute(token, null);
    expect(await service.call(Rpc.getAccount, {}, { accountId: b.id })).toMatchObject({ ok: true, value: { isVerified: true } });
    expect(await service.call(Rpc.getAccount, {}, { accountId: a.id })).toMatchObject({ ok: true, value: { isVerified: false } });
  });

  it('issues no verification token for a verified account, nor any for an unknown one; reset tokens still come', async () => {
    const user = await register('verifiedone');
    await service.get(VerifyEmail).execute(await tokenFor(user.id, 'verify-email'), null);
    expect(await service.get(IssueEmailToken).execute(user.id, 'verify-email', newEmailToken().tokenHash)).toBeNull();
    expect(await service.call(Rpc.issueVerificationToken, { accountId: user.id, tokenHash: newEmailToken().tokenHash })).toEqual({
      ok: true,
      value: null,
    });
    expect(
      await service.call(Rpc.issuePasswordResetToken, {
        accountId: '00000000-0000-4000-8000-000000000000',
        tokenHash: newEmailToken().tokenHash,
      }),
    ).toEqual({ ok: true, value: null });
    const reset = await service.call(Rpc.issuePasswordResetToken, { accountId: user.id, tokenHash: newEmailToken().tokenHash });
    expect(reset).toMatchObject({ ok: true, value: { email: 'verifiedone@example.test', firstName: 'Verifiedone' } });
    if (reset.ok && reset.value) expect(Date.parse(reset.value.expiresAt) - Date.now()).toBeLessThanOrEqual(30 * 60_000);
  });
});

describe('password reset', () => {
  it('records a request for a known email only, answering the same for an unknown one', async () => {
    const user = await register('musa');
    expect(await service.call(Rpc.requestPasswordReset, { email: 'MUSA@example.test' })).toEqual({ ok: true, value: { requested: true } });
    expect((await eventsOf(Events.passwordResetRequested, user.id)).map((e) => e.data)).toEqual([
      { accountId: user.id, requestedAt: expect.stringMatching(/^\d{4}-/) },
    ]);
    const before = (await service.recordedEvents(Events.passwordResetRequested.subject)).length;
    await expect(service.get(RequestPasswordReset).execute('no-account@example.test')).resolves.toEqual({ requested: true });
    expect(await service.recordedEvents(Events.passwordResetRequested.subject)).toHaveLength(before);
  });

  it('sets the new password with identity.user.password-changed; the old password then fails', async () => {
    const user = await register('pieter');
    const token = await tokenFor(user.id, 'reset-password');
    const reset = service.get(ResetPassword);
    await expect(reset.execute({ token, password: 'qwerty123' }, null)).rejects.toMatchObject({
      body: { statusCode: 400, fieldErrors: { password: [AccountMessages.commonPassword] } },
    });
    // The common password spent nothing: the same link still works.
    await expect(reset.execute({ token, password: 'new-fynbos-path' }, null)).resolves.toEqual(user);
    expect((await eventsOf(Events.passwordChanged, user.id)).map((e) => e.data)).toEqual([
      { accountId: user.id, changedAt: expect.stringMatching(/^\d{4}-/) },
    ]);
    const authenticate = service.get(Authenticate);
    await expect(authenticate.execute({ email: 'pieter@example.test', password: PASSWORD })).rejects.toMatchObject(
      refusal(401, 'AUTH_INVALID_CREDENTIALS', AccountMessages.invalidCredentials),
    );
    await expect(authenticate.execute({ email: 'pieter@example.test', password: 'new-fynbos-path' })).resolves.toEqual(user);
    await expect(reset.execute({ token, password: 'another-new-path' }, null)).rejects.toMatchObject(linkInvalid);
    expect(await eventsOf(Events.passwordChanged, user.id)).toHaveLength(1);
  });

  it('revokes earlier reset links when a new one is issued, and refuses a verification token', async () => {
    const user = await register('zanele');
    const first = await tokenFor(user.id, 'reset-password');
    const second = await tokenFor(user.id, 'reset-password');
    const reset = service.get(ResetPassword);
    await expect(reset.execute({ token: first, password: 'first-link-pass' }, null)).rejects.toMatchObject(linkInvalid);
    await expect(
      reset.execute({ token: await tokenFor(user.id, 'verify-email'), password: 'verify-link-pass' }, null),
    ).rejects.toMatchObject(linkInvalid);
    expect(await eventsOf(Events.passwordChanged, user.id)).toHaveLength(0);
    expect(await service.call(Rpc.resetPassword, { token: second, password: 'second-link-pass' })).toEqual({ ok: true, value: user });
  });
});

describe('delete account', () => {
  it('refuses the wrong password and keeps everything; with the right one deletes and records identity.user.deleted', async () => {
    const user = await register('thabo');
    await tokenFor(user.id, 'verify-email');
    const remove = service.get(DeleteAccount);
    await expect(remove.execute(user.id, 'not-the-password')).rejects.toMatchObject(
      refusal(401, 'AUTH_WRONG_PASSWORD', AccountMessages.wrongPassword),
    );
    expect(await service.call(Rpc.getAccount, {}, { accountId: user.id })).toEqual({ ok: true, value: user });
    expect(await eventsOf(Events.userDeleted, user.id)).toHaveLength(0);

    await expect(remove.execute(user.id, PASSWORD)).resolves.toEqual({ deleted: true });
    expect((await eventsOf(Events.userDeleted, user.id)).map((e) => e.data)).toEqual([
      // The address goes with the event only when the account had proved it (this one never used its link).
      { accountId: user.id, deletedAt: expect.stringMatching(/^\d{4}-/), email: null },
    ]);
    expect(await service.sql('SELECT id FROM identity.accounts WHERE id = $1', [user.id])).toEqual([]);
    expect(await service.sql('SELECT id FROM identity.email_tokens WHERE account_id = $1', [user.id])).toEqual([]);
    await expect(service.get(Authenticate).execute({ email: 'thabo@example.test', password: PASSWORD })).rejects.toMatchObject(
      refusal(401, 'AUTH_INVALID_CREDENTIALS', AccountMessages.invalidCredentials),
    );
    expect(await service.call(Rpc.getAccount, {}, { accountId: user.id })).toMatchObject({
      ok: false,
      status: 404,
      message: 'No such account.',
    });
  });
});

describe('account-scoped calls over NATS', () => {
  it('answers a visitor 401 for getAccount, requestVerification and deleteAccount', async () => {
    const unauthorized = { ok: false, status: 401, code: 'UNAUTHORIZED', message: 'Please log in first.' };
    expect(await service.call(Rpc.getAccount, {}, null)).toEqual(unauthorized);
    expect(await service.call(Rpc.requestVerification, {}, null)).toEqual(unauthorized);
    expect(await service.call(Rpc.deleteAccount, { password: PASSWORD }, null)).toEqual(unauthorized);
  });

  it('acts on the signed-in account B only: a body field naming A is ignored', async () => {
    const a = await register('amahle', { password: 'her-own-pass-a1' });
    const b = await register('bheki');
    const asB = { accountId: b.id };
    const namingA = { accountId: a.id } as never;

    expect(await service.call(Rpc.getAccount, namingA, asB)).toEqual({ ok: true, value: b });

    expect(await service.call(Rpc.requestVerification, namingA, asB)).toEqual({ ok: true, value: { requested: true } });
    expect(await eventsOf(Events.verificationRequested, b.id)).toHaveLength(1);
    expect(await eventsOf(Events.verificationRequested, a.id)).toHaveLength(0);

    // A's password does not delete B, and nothing deletes A.
    expect(await service.call(Rpc.deleteAccount, { password: 'her-own-pass-a1', accountId: a.id } as never, asB)).toMatchObject({
      ok: false,
      status: 401,
      code: 'AUTH_WRONG_PASSWORD',
    });
    expect(await service.call(Rpc.deleteAccount, { password: PASSWORD, accountId: a.id } as never, asB)).toEqual({
      ok: true,
      value: { deleted: true },
    });
    expect(await eventsOf(Events.userDeleted, b.id)).toHaveLength(1);
    expect(await eventsOf(Events.userDeleted, a.id)).toHaveLength(0);
    expect(await service.call(Rpc.getAccount, {}, { accountId: a.id })).toEqual({ ok: true, value: a });
    expect(await service.call(Rpc.getAccount, {}, asB)).toMatchObject({ ok: false, status: 404 });
  });

  it('answers accountById for the account named in the body, whoever meta says is asking; 404 once it is gone', async () => {
    const a = await register('ayandabyid');
    const b = await register('bonganibyid');
    expect(await service.call(Rpc.accountById, { accountId: a.id }, null)).toEqual({ ok: true, value: a });
    expect(await service.call(Rpc.accountById, { accountId: a.id }, { accountId: b.id })).toEqual({ ok: true, value: a });
    expect(await service.call(Rpc.accountById, {} as never, { accountId: a.id })).toMatchObject({ ok: false, status: 400 });
    expect(await service.call(Rpc.deleteAccount, { password: PASSWORD }, { accountId: a.id })).toMatchObject({ ok: true });
    expect(await service.call(Rpc.accountById, { accountId: a.id }, null)).toMatchObject({ ok: false, status: 404 });
  });

  it('asks for no verification email once the account is verified', async () => {
    const user = await register('verifiedtwo');
    await service.get(VerifyEmail).execute(await tokenFor(user.id, 'verify-email'), null);
    expect(await service.call(Rpc.requestVerification, {}, { accountId: user.id })).toEqual({ ok: true, value: { requested: false } });
    expect(await eventsOf(Events.verificationRequested, user.id)).toHaveLength(0);
  });
});

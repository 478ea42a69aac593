import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { AccountMessages, Events, Rpc, busPermissions, type SessionUser } from '@digicard/contracts';
import { newEmailToken } from '@digicard/server';
import { InProcessService } from '@digicard/service-testing';
import type { Config } from '../src/config.js';
import { identityService } from '../src/service.js';
import { Authenticate } from '../src/accounts/use-cases/authenticate.use-case.js';
import { RegisterAccount } from '../src/accounts/use-cases/register-account.use-case.js';

// Account details (issue 12): the owner's names, and a change of email confirmed by a link sent to the new address
// (the token made by the sender, only its hash stored here), in the identity service with its real database and NATS.

let service: InProcessService<Config>;
const PASSWORD = 'kudu-braai-2026';

async function register(username: string): Promise<SessionUser> {
  const { accountId } = await service
    .get(RegisterAccount)
    .execute({ username, firstName: 'Lerato', lastName: 'Dube', email: `${username}@example.test`, password: PASSWORD });
  if (!accountId) throw new Error(`${username}: that email has an account already`);
  const account = await service.call(Rpc.getAccount, {}, { accountId });
  if (!account.ok) throw new Error('not found');
  return account.value as SessionUser;
}

const eventsOf = async <T extends { accountId: string }>(event: { subject: string }, accountId: string) =>
  (await service.recordedEvents<T>(event.subject)).filter((e) => e.data.accountId === accountId).map((e) => e.data);

/** What notifications does on `identity.email-change.requested`: makes the token, asks identity to keep its hash. */
async function linkFor(accountId: string, newEmail: string): Promise<string> {
  const { token, tokenHash } = newEmailToken();
  const issued = await service.call(Rpc.issueEmailChangeToken, { accountId, newEmail, tokenHash });
  expect(issued).toEqual({
    ok: true,
    value: { email: newEmail, firstName: expect.any(String), expiresAt: expect.stringMatching(/^\d{4}-/) },
  });
  return token;
}

const linkInvalid = { ok: false, status: 400, code: 'LINK_INVALID', message: AccountMessages.linkInvalid };

beforeAll(async () => {
  service = await InProcessService.start(identityService);
});

afterAll(async () => {
  await service.stop();
});

describe('names', () => {
  it('changes the signed-in account’s names with identity.user.changed; the same names again record nothing', async () => {
    const user = await register('thandi');
    const renamed = await service.call(Rpc.renameAccount, { firstName: '  Thandiwe ', lastName: 'Nkosi-Dube' }, { accountId: user.id });
    expect(renamed).toEqual({ ok: true, value: { ...user, firstName: 'Thandiwe', lastName: 'Nkosi-Dube' } });
    expect(await eventsOf(Events.userChanged, user.id)).toEqual([
      {
        accountId: user.id,
        username: 'thandi',
        email: 'thandi@example.test',
        firstName: 'Thandiwe',
        lastName: 'Nkosi-Dube',
        changedAt: expect.any(String),
      },
    ]);
    await service.call(Rpc.renameAccount, { firstName: 'Thandiwe', lastName: 'Nkosi-Dube' }, { accountId: user.id });
    expect(await eventsOf(Events.userChanged, user.id)).toHaveLength(1);
  });

  it('refuses empty names with field errors, a visitor with 401, and never renames the account a body names', async () => {
    const a = await register('amogelang');
    const b = await register('boitumelo');
    expect(await service.call(Rpc.renameAccount, { firstName: ' ', lastName: '' }, { accountId: a.id })).toMatchObject({
      ok: false,
      status: 400,
      fieldErrors: { 'body.firstName': ['Please enter your first name.'], 'body.lastName': ['Please enter your last name.'] },
    });
    expect(await service.call(Rpc.renameAccount, { firstName: 'X', lastName: 'Y' }, null)).toMatchObject({ ok: false, status: 401 });
    // B's call naming A in the body changes B only.
    await service.call(Rpc.renameAccount, { firstName: 'Bo', lastName: 'Tau', accountId: a.id } as never, { accountId: b.id });
    expect(await service.call(Rpc.getAccount, {}, { accountId: a.id })).toEqual({ ok: true, value: a });
    expect(await service.call(Rpc.getAccount, {}, { accountId: b.id })).toMatchObject({
      ok: true,
      value: { firstName: 'Bo', lastName: 'Tau' },
    });
  });
});

describe('team members', () => {
  it('refuses a rep’s own change of names or email (403): the leader manages them, and nothing is recorded', async () => {
    const rep = await register('repnomvula');
    await service.sql("UPDATE identity.accounts SET role = 'teamMember' WHERE id = $1", [rep.id]);
    const refused = { ok: false, status: 403, message: AccountMessages.managedByLeader };
    expect(
      await service.call(Rpc.renameAccount, { firstName: 'Nomvula', lastName: 'Other' }, { accountId: rep.id, role: 'teamMember' }),
    ).toMatchObject(refused);
    expect(
      await service.call(
        Rpc.requestEmailChange,
        { email: 'rep.new@example.test', password: PASSWORD },
        { accountId: rep.id, role: 'teamMember' },
      ),
    ).toMatchObject(refused);
    expect(await eventsOf(Events.userChanged, rep.id)).toHaveLength(0);
    expect(await eventsOf(Events.emailChangeRequested, rep.id)).toHaveLength(0);
  });
});

describe('email change', () => {
  it('keeps the new address pending until the link is used; then sign-in works with the new email only', async () => {
    const user = await register('sipho');
    expect(
      await service.call(Rpc.requestEmailChange, { email: 'Sipho.New@Example.test', password: PASSWORD }, { accountId: user.id }),
    ).toEqual({
      ok: true,
      value: { requested: true },
    });
    expect(await eventsOf(Events.emailChangeRequested, user.id)).toEqual([
      { accountId: user.id, newEmail: 'Sipho.New@Example.test', requestedAt: expect.any(String) },
    ]);
    // Nothing changed yet: the old email still signs in.
    expect(await service.call(Rpc.getAccount, {}, { accountId: user.id })).toMatchObject({
      ok: true,
      value: { email: 'sipho@example.test' },
    });
    await expect(service.get(Authenticate).execute({ email: 'sipho@example.test', password: PASSWORD })).resolves.toMatchObject({
      id: user.id,
    });

    const token = await linkFor(user.id, 'Sipho.New@Example.test');
    // Only the hash is stored, bound to the address it was sent to.
    const [stored] = await service.sql<{ token_hash: string; new_email: string; purpose: string }>(
      "SELECT token_hash, new_email, purpose FROM identity.email_tokens WHERE account_id = $1 AND purpose = 'change-email'",
      [user.id],
    );
    expect(stored).toEqual({
      token_hash: createHash('sha256').update(token).digest('hex'),
      new_email: 'Sipho.New@Example.test',
      purpose: 'change-email',
    });

    // The link proves the new mailbox: the account counts as verified from then on.
    expect(await service.call(Rpc.confirmEmailChange, { token })).toEqual({
      ok: true,
      value: { ...user, email: 'Sipho.New@Example.test', isVerified: true },
    });
    expect(await eventsOf(Events.userVerified, user.id)).toHaveLength(1);
    expect(await eventsOf(Events.emailChanged, user.id)).toEqual([
      { accountId: user.id, oldEmail: 'sipho@example.test', newEmail: 'Sipho.New@Example.test', changedAt: expect.any(String) },
    ]);
    expect(await eventsOf(Events.userChanged, user.id)).toEqual([
      expect.objectContaining({ email: 'Sipho.New@Example.test', username: 'sipho' }),
    ]);
    await expect(service.get(Authenticate).execute({ email: 'sipho@example.test', password: PASSWORD })).rejects.toMatchObject({
      body: { code: 'AUTH_INVALID_CREDENTIALS' },
    });
    await expect(service.get(Authenticate).execute({ email: 'sipho.new@example.test', password: PASSWORD })).resolves.toMatchObject({
      id: user.id,
    });

    // Single use: the same link again does nothing more.
    expect(await service.call(Rpc.confirmEmailChange, { token })).toEqual(linkInvalid);
    expect(await eventsOf(Events.emailChanged, user.id)).toHaveLength(1);
  });

  it('refuses a wrong password (401) and one’s own address (field error), keeping nothing pending', async () => {
    const user = await register('zodwa');
    expect(
      await service.call(Rpc.requestEmailChange, { email: 'zodwa2@example.test', password: 'not-her-password' }, { accountId: user.id }),
    ).toMatchObject({
      ok: false,
      status: 401,
      code: 'AUTH_WRONG_PASSWORD',
    });
    expect(
      await service.call(Rpc.requestEmailChange, { email: 'ZODWA@example.test', password: PASSWORD }, { accountId: user.id }),
    ).toMatchObject({
      ok: false,
      status: 400,
      fieldErrors: { email: [AccountMessages.sameEmail] },
    });
    expect(await service.call(Rpc.requestEmailChange, { email: 'not-an-email', password: PASSWORD }, { accountId: user.id })).toMatchObject(
      {
        ok: false,
        status: 400,
        fieldErrors: { 'body.email': [expect.any(String)] },
      },
    );
    expect(await service.call(Rpc.requestEmailChange, { email: 'x@example.test', password: PASSWORD }, null)).toMatchObject({
      ok: false,
      status: 401,
    });
    expect(await eventsOf(Events.emailChangeRequested, user.id)).toHaveLength(0);
    const [row] = await service.sql<{ pending_email: string | null }>('SELECT pending_email FROM identity.accounts WHERE id = $1', [
      user.id,
    ]);
    expect(row?.pending_email).toBeNull();
  });

  it('answers a taken address as any other, keeps nothing, and tells the owner of that address instead', async () => {
    const asker = await register('kabelo');
    const holder = await register('palesa');
    expect(
      await service.call(Rpc.requestEmailChange, { email: 'PALESA@example.test', password: PASSWORD }, { accountId: asker.id }),
    ).toEqual({
      ok: true,
      value: { requested: true },
    });
    expect(await eventsOf(Events.emailChangeRequested, asker.id)).toHaveLength(0);
    expect(await eventsOf(Events.emailChangeAttempted, holder.id)).toEqual([{ accountId: holder.id, attemptedAt: expect.any(String) }]);
    // No link can be issued for an address that is not pending.
    const { tokenHash } = newEmailToken();
    expect(await service.call(Rpc.issueEmailChangeToken, { accountId: asker.id, newEmail: 'palesa@example.test', tokenHash })).toEqual({
      ok: true,
      value: null,
    });
  });

  it('refuses an expired link, an unknown one, a replaced one, and one whose address another account took since', async () => {
    const user = await register('mpho');
    await service.call(Rpc.requestEmailChange, { email: 'mpho.first@example.test', password: PASSWORD }, { accountId: user.id });
    const first = await linkFor(user.id, 'mpho.first@example.test');
    await service.sql("UPDATE identity.email_tokens SET expires_at = now() - interval '1 minute' WHERE token_hash = $1", [
      createHash('sha256').update(first).digest('hex'),
    ]);
    expect(await service.call(Rpc.confirmEmailChange, { token: first })).toEqual(linkInvalid);
    expect(await service.call(Rpc.confirmEmailChange, { token: randomBytes(16).toString('base64url') })).toEqual(linkInvalid);

    // A second request replaces the first: the first request's event gets no link, its earlier link stops working.
    await service.call(Rpc.requestEmailChange, { email: 'mpho.second@example.test', password: PASSWORD }, { accountId: user.id });
    const { tokenHash } = newEmailToken();
    expect(await service.call(Rpc.issueEmailChangeToken, { accountId: user.id, newEmail: 'mpho.first@example.test', tokenHash })).toEqual({
      ok: true,
      value: null,
    });
    await service.call(Rpc.requestEmailChange, { email: 'mpho.first@example.test', password: PASSWORD }, { accountId: user.id });
    const older = await linkFor(user.id, 'mpho.first@example.test');
    await service.call(Rpc.requestEmailChange, { email: 'mpho.second@example.test', password: PASSWORD }, { accountId: user.id });
    const newer = await linkFor(user.id, 'mpho.second@example.test');
    expect(await service.call(Rpc.confirmEmailChange, { token: older })).toEqual(linkInvalid);

    // Someone registers the address before the link is used: the link no longer works.
    await service
      .get(RegisterAccount)
      .execute({ username: 'mphoimpostor', firstName: 'I', lastName: 'M', email: 'MPHO.SECOND@example.test', password: PASSWORD });
    expect(await service.call(Rpc.confirmEmailChange, { token: newer })).toEqual(linkInvalid);
    expect(await service.call(Rpc.getAccount, {}, { accountId: user.id })).toMatchObject({
      ok: true,
      value: { email: 'mpho@example.test' },
    });
    expect(await eventsOf(Events.emailChanged, user.id)).toHaveLength(0);
  });

  it('binds a link to its account: another account’s hash is refused, a retry with the same hash gets the same answer', async () => {
    const a = await register('ayabonga');
    const b = await register('buhle');
    await service.call(Rpc.requestEmailChange, { email: 'ayabonga.new@example.test', password: PASSWORD }, { accountId: a.id });
    await service.call(Rpc.requestEmailChange, { email: 'buhle.new@example.test', password: PASSWORD }, { accountId: b.id });
    const { tokenHash } = newEmailToken();
    const first = await service.call(Rpc.issueEmailChangeToken, { accountId: a.id, newEmail: 'ayabonga.new@example.test', tokenHash });
    expect(await service.call(Rpc.issueEmailChangeToken, { accountId: a.id, newEmail: 'ayabonga.new@example.test', tokenHash })).toEqual(
      first,
    );
    expect(await service.call(Rpc.issueEmailChangeToken, { accountId: b.id, newEmail: 'buhle.new@example.test', tokenHash })).toMatchObject(
      { ok: false, status: 409 },
    );
    // The issuing subject is for services only: the gateway (browsers' requests) may not publish it; notifications may.
    expect(busPermissions('gateway').publish).not.toContain(Rpc.issueEmailChangeToken.subject);
    expect(busPermissions('notifications').publish).toContain(Rpc.issueEmailChangeToken.subject);
  });

  it('spends the old address’s unused links (verification, reset) when the email changes', async () => {
    const user = await register('lindiwe');
    const { token: resetToken, tokenHash: resetHash } = newEmailToken();
    await service.call(Rpc.issuePasswordResetToken, { accountId: user.id, tokenHash: resetHash });
    await service.call(Rpc.requestEmailChange, { email: 'lindiwe.new@example.test', password: PASSWORD }, { accountId: user.id });
    await service.call(Rpc.confirmEmailChange, { token: await linkFor(user.id, 'lindiwe.new@example.test') });
    expect(await service.call(Rpc.resetPassword, { token: resetToken, password: 'a-brand-new-pass-9' })).toEqual(linkInvalid);
    // The link proved the new mailbox: the account counts as verified.
    expect(await service.call(Rpc.getAccount, {}, { accountId: user.id })).toMatchObject({
      ok: true,
      value: { email: 'lindiwe.new@example.test', isVerified: true },
    });
  });
});

describe('data export', () => {
  it('answers the signed-in account’s own data without any hash; a visitor gets 401', async () => {
    const a = await register('nomsa');
    const b = await register('nandi');
    await service.call(Rpc.requestEmailChange, { email: 'nomsa.next@example.test', password: PASSWORD }, { accountId: a.id });
    const exported = await service.exportOf(Rpc.exportAccountData, { accountId: a.id });
    expect(exported).toMatchObject({ ok: true, value: { id: a.id, email: 'nomsa@example.test', pendingEmail: 'nomsa.next@example.test' } });
    const text = JSON.stringify(exported);
    expect(text).not.toContain('argon2');
    expect(text).not.toContain(b.id);
    expect(text).not.toContain('nandi');
    expect(await service.exportOf(Rpc.exportAccountData, null)).toMatchObject({ ok: false, status: 401 });
  });
});

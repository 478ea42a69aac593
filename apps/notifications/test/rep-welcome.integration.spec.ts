import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Events, Rpc } from '@digicard/contracts';
import { newEmailToken } from '@digicard/server';
import { InProcessService, builtServiceDefinition } from '@digicard/service-testing';
import type { ServiceBaseConfig } from '@digicard/server';
import { waitFor } from '@digicard/testing';
import type { Config } from '../src/config.js';
import { notificationsService } from '../src/service.js';
import { startMailInbox, type CaughtMail, type MailInbox } from './mail-inbox.js';

// A new team rep's welcome email, with the real identity service (from its build, in this process too, on the same
// NATS server as this in-process notifications service) and a real SMTP server on the wire: the link sets the rep's
// own password.

let identityService: InProcessService<ServiceBaseConfig>;
let service: InProcessService<Config>;
const identity = {
  call: ((...args: Parameters<InProcessService<Config>['call']>) => service.call(...args)) as InProcessService<Config>['call'],
  sql: (text: string, params: unknown[] = []) => identityService.sql(text, params),
};
let smtp: MailInbox;
const inbox: CaughtMail[] = [];
const prefix = `u-${randomBytes(4).toString('hex')}`;
const PASSWORD = 'kudu-braai-2026';

beforeAll(async () => {
  smtp = await startMailInbox(prefix, inbox);
  service = await InProcessService.start(notificationsService(), smtp.env);
  identityService = await InProcessService.start(await builtServiceDefinition('identity'), { NATS_URL: service.natsUrl });
});

afterAll(async () => {
  await identityService?.stop();
  await service?.stop();
  await smtp?.close();
});

describe('rep welcome', () => {
  it('emails a new rep a link that lets them choose their own password, once per event', async () => {
    const leader = await identity.call(Rpc.register, {
      username: 'welcome-lead',
      firstName: 'Ayanda',
      lastName: 'Mthembu',
      email: 'welcome-lead@example.test',
      password: PASSWORD,
    });
    if (!leader.ok) throw new Error(leader.message);
    await identity.sql(`UPDATE identity.accounts SET role = 'teamLeader' WHERE id = $1`, [leader.value.accountId!]);
    const created = await identity.call(
      Rpc.createRepAccounts,
      {
        leaderPassword: PASSWORD,
        dryRun: false,
        reps: [{ username: 'welcome-rep', firstName: 'Nomsa', lastName: 'Sithole', email: 'welcome-rep@example.test', password: '' }],
      },
      { accountId: leader.value.accountId!, role: 'teamLeader' },
    );
    if (!created.ok) throw new Error(created.message);
    const repId = created.value.accounts[0]!.accountId;

    const data = {
      leaderAccountId: leader.value.accountId!,
      memberAccountId: repId,
      username: 'welcome-rep',
      tel: '0821234567',
      addedAt: new Date().toISOString(),
    };
    const eventId = await service.publish(Events.teamMemberAdded, data);
    const [mail] = await waitFor('the welcome email', () =>
      Promise.resolve(
        inbox.filter((m) => m.to.includes('welcome-rep@example.test')).length
          ? inbox.filter((m) => m.to.includes('welcome-rep@example.test'))
          : null,
      ),
    );
    expect(mail!.subject).toBe('Welcome to your team on DigiCard');
    expect(mail!.text).toContain('Ayanda Mthembu added you to their team');
    expect(mail!.text).toContain('7 days');
    const link = /http:\/\/localhost:8080\/reset-password\?token=([A-Za-z0-9_-]+)/.exec(mail!.text);
    expect(link).not.toBeNull();
    // The job carried a secret: it is gone from Redis once sent.
    await service.handled(Events.teamMemberAdded, eventId);
    await service.publish(Events.teamMemberAdded, data, eventId);

    const reset = await identity.call(Rpc.resetPassword, { token: link![1]!, password: 'my-own-secret-77' });
    expect(reset).toMatchObject({ ok: true, value: { id: repId, role: 'teamMember' } });
    expect(await identity.call(Rpc.authenticate, { email: 'welcome-rep@example.test', password: 'my-own-secret-77' })).toMatchObject({
      ok: true,
    });
    // Used once only.
    expect(await identity.call(Rpc.resetPassword, { token: link![1]!, password: 'another-secret-88' })).toMatchObject({
      ok: false,
      status: 400,
    });
    await new Promise((r) => setTimeout(r, 500));
    expect(inbox.filter((m) => m.to.includes('welcome-rep@example.test'))).toHaveLength(1);
  });

  it('sends no welcome for an account that is not a team member', async () => {
    const user = await identity.call(Rpc.register, {
      username: 'not-a-rep',
      firstName: 'Pieter',
      lastName: 'Botha',
      email: 'not-a-rep@example.test',
      password: PASSWORD,
    });
    if (!user.ok) throw new Error(user.message);
    expect(
      await identity.call(Rpc.issueWelcomeToken, { accountId: user.value.accountId!, tokenHash: newEmailToken().tokenHash }, null),
    ).toEqual({ ok: true, value: null });
    const eventId = await service.publish(Events.teamMemberAdded, {
      leaderAccountId: user.value.accountId!,
      memberAccountId: user.value.accountId!,
      username: 'not-a-rep',
      tel: '0821234567',
      addedAt: new Date().toISOString(),
    });
    await service.handled(Events.teamMemberAdded, eventId);
    expect(inbox.filter((m) => m.subject.startsWith('Welcome to your team') && m.to.includes('not-a-rep@example.test'))).toHaveLength(0);
  });
});

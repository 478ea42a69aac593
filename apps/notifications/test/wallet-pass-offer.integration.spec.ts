import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { Events, Rpc } from '@digicard/contracts';
import { InProcessService, builtServiceDefinition } from '@digicard/service-testing';
import type { ServiceBaseConfig } from '@digicard/server';
import { GoogleWalletStandIn, makeGoogleTestCredentials, waitFor } from '@digicard/testing';
import type { Config } from '../src/config.js';
import { notificationsService } from '../src/service.js';
import { startMailInbox, type CaughtMail, type MailInbox } from './mail-inbox.js';

// A team leader gives every rep their wallet pass: the real profiles service (from its build, in this process, on the
// same NATS server, Google Wallet configured against a local stand-in) records one offer per rep, and this
// notifications service emails each rep through a real SMTP server on the wire, with links to their own dashboard.

let profiles: InProcessService<ServiceBaseConfig>;
let service: InProcessService<Config>;
let google: GoogleWalletStandIn;
let smtp: MailInbox;
const inbox: CaughtMail[] = [];
const prefix = `wo-${randomBytes(4).toString('hex')}`;

async function registered(username: string, role: 'user' | 'teamLeader' | 'teamMember'): Promise<string> {
  const accountId = randomUUID();
  await profiles.handled(
    Events.userRegistered,
    await profiles.publish(Events.userRegistered, {
      accountId,
      username,
      email: `${username}@example.test`,
      firstName: username[0]!.toUpperCase() + username.slice(1),
      lastName: 'Tester',
      role,
      registeredAt: new Date().toISOString(),
    }),
  );
  return accountId;
}

async function joined(leaderAccountId: string, memberAccountId: string, username: string): Promise<void> {
  await profiles.handled(
    Events.teamMemberAdded,
    await profiles.publish(Events.teamMemberAdded, {
      leaderAccountId,
      memberAccountId,
      username,
      tel: '0821234567',
      addedAt: new Date().toISOString(),
    }),
  );
}

const mailsTo = (address: string) => inbox.filter((m) => m.to.includes(address) && m.subject.includes('phone’s wallet'));

beforeAll(async () => {
  smtp = await startMailInbox(prefix, inbox);
  service = await InProcessService.start(notificationsService(), smtp.env);
  const credentials = makeGoogleTestCredentials();
  google = await new GoogleWalletStandIn(credentials).start();
  profiles = await InProcessService.start(await builtServiceDefinition('profiles'), {
    NATS_URL: service.natsUrl,
    PUBLIC_URL: 'http://localhost:8080',
    REDIS_URL: smtp.env['REDIS_URL']!,
    QUEUE_PREFIX: `${prefix}-p`,
    ...credentials.env(google),
  });
});

afterAll(async () => {
  await profiles?.stop();
  await service?.stop();
  await google?.stop();
  await smtp?.close();
});

describe('a leader gives every rep their pass', () => {
  it('emails each of the leader’s own reps once, with the links of the wallets offered, and no other team’s rep', async () => {
    const leader = await registered('ayanda', 'teamLeader');
    const otherLeader = await registered('johan', 'teamLeader');
    const nomsa = await registered('nomsa', 'teamMember');
    const kagiso = await registered('kagiso', 'teamMember');
    const stranger = await registered('pieter', 'teamMember');
    await joined(leader, nomsa, 'nomsa');
    await joined(leader, kagiso, 'kagiso');
    await joined(otherLeader, stranger, 'pieter');

    const answer = await profiles.call(Rpc.offerRepPasses, {}, { accountId: leader, role: 'teamLeader' });
    assert.deepEqual(answer, { ok: true, value: { sent: 2 } });

    await waitFor('both reps emailed', () =>
      Promise.resolve(mailsTo('nomsa@example.test').length === 1 && mailsTo('kagiso@example.test').length === 1),
    );
    const mail = mailsTo('nomsa@example.test')[0]!;
    assert.equal(mail.subject, '[DigiCard] Your card, in your phone’s wallet');
    assert.match(mail.text, /Hi Nomsa, Ayanda Tester would like you to carry your DigiCard card/);
    assert.match(mail.text, /Add to Google Wallet: http:\/\/localhost:8080\/dashboard\?section=qr&wallet=google/);
    assert.ok(!mail.text.includes('Add to Apple Wallet'), 'Apple Wallet is not configured: no Apple link');
    assert.match(mail.html, /href="http:\/\/localhost:8080\/dashboard\?section=qr&amp;wallet=google"/);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    assert.equal(mailsTo('pieter@example.test').length, 0, 'another team’s rep gets nothing');
    assert.equal(mailsTo('nomsa@example.test').length, 1);
    assert.equal(mailsTo('ayanda@example.test').length, 0, 'the leader is not one of the reps');
  });

  it('is refused to a rep and to an account that is not a leader; nothing is sent', async () => {
    const rep = await registered('busi', 'teamMember');
    for (const role of ['teamMember', 'user'] as const) {
      const refused = await profiles.call(Rpc.offerRepPasses, {}, { accountId: rep, role });
      assert.equal(refused.ok ? 200 : refused.status, 403, role);
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.equal(mailsTo('busi@example.test').length, 0);
  });
});

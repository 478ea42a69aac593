import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Events, Rpc, type SessionUser } from '@digicard/contracts';
import { connectNats, type NatsConnection } from '@digicard/messaging';
import { InProcessService } from '@digicard/service-testing';
import { waitFor } from '@digicard/testing';
import type { Config } from '../src/config.js';
import { notificationsService } from '../src/service.js';
import { startMailInbox, type CaughtMail, type MailInbox } from './mail-inbox.js';

// The notifications service in this process, on a fresh database, its own NATS server, a Redis prefix of its own
// and a real SMTP server on the wire: events in, emails out, once each.

let service: InProcessService<Config>;
let smtp: MailInbox;
let identityStandIn: NatsConnection;

/**
 * STAND-IN FOR THE IDENTITY SERVICE: answers the service-only `identity.account.get-by-id` on this file's NATS (in the
 * reply format of Nest's NATS transport) for the accounts listed here, and 404 for any other. A request posing as an
 * account in `meta.userId` is refused, as no service may act that way for another account.
 */
const standInAccounts = new Map<string, SessionUser>();
async function startIdentityStandIn(natsUrl: string): Promise<NatsConnection> {
  const nc = await connectNats(natsUrl, 'identity-stand-in');
  nc.subscribe(Rpc.accountById.subject, {
    callback: (_error, msg) => {
      const packet = msg.json<{ id: string; data: { meta: { userId: string | null }; body: { accountId: string } } }>();
      const account = standInAccounts.get(packet.data.body.accountId);
      const reply =
        packet.data.meta.userId !== null
          ? { id: packet.id, err: { statusCode: 403, code: 'FORBIDDEN', message: 'A service names the account.' }, isDisposed: true }
          : account
            ? { id: packet.id, response: account, isDisposed: true }
            : { id: packet.id, err: { statusCode: 404, code: 'NOT_FOUND', message: 'Account not found.' }, isDisposed: true };
      msg.respond(JSON.stringify(reply));
    },
  });
  await nc.flush();
  return nc;
}
const inbox: CaughtMail[] = [];
const prefix = `u-${randomBytes(4).toString('hex')}`;

beforeAll(async () => {
  smtp = await startMailInbox(prefix, inbox);
  service = await InProcessService.start(notificationsService(), {
    ...smtp.env,
    VAT_NUMBER: '4123456789',
  });
  identityStandIn = await startIdentityStandIn(service.natsUrl);
});

afterAll(async () => {
  await identityStandIn?.close();
  await service?.stop();
  await smtp?.close();
});

const lead = (ownerEmail: string) => ({
  leadId: randomUUID(),
  accountId: randomUUID(),
  ownerEmail,
  ownerFirstName: 'Naledi',
  kind: 'lead' as const,
  firstName: 'Thabo',
  lastName: 'Mokoena',
  email: 'thabo@example.test',
  phone: '0821234567',
  message: 'Please call me about the flat',
  createdAt: new Date().toISOString(),
});

const mailTo = (address: string) => inbox.filter((m) => m.to.includes(address));

/**
 * The mail log's row of a job once the worker has recorded how its send ended. The catcher holds the message as soon
 * as SMTP accepted it, and the worker marks the row `sent` just after: read at once, it can still say `sending`.
 */
const sendRecorded = (jobId: string) =>
  waitFor(`the send of ${jobId} recorded`, async () => {
    const rows = await service.sql<{ status: string; recipient: string }>(
      'SELECT status, recipient FROM notifications.mail_log WHERE job_id = $1',
      [jobId],
    );
    return rows.some((r) => r.status === 'sending') ? null : rows;
  });

describe('email triggers', () => {
  it('emails the owner of a profile the lead a visitor left, and logs it', async () => {
    const eventId = await service.publish(Events.leadCaptured, lead('naledi@example.test'));
    const [mail] = await waitFor('the lead email', () =>
      Promise.resolve(mailTo('naledi@example.test').length ? mailTo('naledi@example.test') : null),
    );
    expect(mail!.subject).toContain('Thabo Mokoena');
    expect(mail!.text).toContain('Please call me about the flat');
    expect(mail!.text).toContain('0821234567');
    expect(await sendRecorded(`lead-captured-${eventId}`)).toEqual([{ status: 'sent', recipient: 'naledi@example.test' }]);
  });

  it('sends one email for an event delivered twice', async () => {
    const data = lead('twice@example.test');
    const eventId = await service.publish(Events.leadCaptured, data);
    await service.handled(Events.leadCaptured, eventId);
    await service.publish(Events.leadCaptured, data, eventId);
    await waitFor('the first email', () => Promise.resolve(mailTo('twice@example.test').length > 0));
    // Time for a second one to arrive, were it sent.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(mailTo('twice@example.test')).toHaveLength(1);
    const handled = await service.sql('SELECT count(*)::int AS n FROM notifications.processed_messages WHERE message_id = $1', [eventId]);
    expect(handled[0]!['n']).toBe(1);
  });

  it('tells the sales inbox about an enquiry, with what the visitor wrote', async () => {
    await service.publish(Events.enquiryReceived, {
      enquiryId: randomUUID(),
      kind: 'message',
      name: 'Zanele Khumalo',
      email: 'zanele@example.test',
      phone: null,
      message: 'Do you print bamboo cards with a logo?',
      receivedAt: new Date().toISOString(),
    });
    const mails = await waitFor('the enquiry email', () =>
      Promise.resolve(
        mailTo('sales@digicard.test').filter((m) => m.text.includes('bamboo cards')).length ? mailTo('sales@digicard.test') : null,
      ),
    );
    expect(mails.some((m) => m.text.includes('Zanele Khumalo'))).toBe(true);
  });

  it('emails the owner each move of an order: the proof ready, then shipped with the courier and tracking number', async () => {
    const accountId = randomUUID();
    standInAccounts.set(accountId, {
      id: accountId,
      username: 'sipho',
      email: 'sipho@example.test',
      firstName: 'Sipho',
      lastName: 'Zulu',
      role: 'user',
      isVerified: true,
    });
    const orderId = randomUUID();
    const move = {
      orderId,
      accountId,
      reference: 'DC-PR00F1',
      note: null,
      courier: null,
      trackingNumber: null,
      at: '2030-03-15T10:00:00.000Z',
    };
    await service.publish(Events.orderStateChanged, { ...move, from: 'paid', to: 'proof-ready', by: 'system' });
    const shippedId = await service.publish(Events.orderStateChanged, {
      ...move,
      from: 'nfc-encoded',
      to: 'shipped',
      by: 'print',
      note: 'Two cards <in> one box',
      courier: 'The Courier Guy',
      trackingNumber: 'TCG123456',
    });
    const mails = await waitFor('both emails', () =>
      Promise.resolve(mailTo('sipho@example.test').length === 2 ? mailTo('sipho@example.test') : null),
    );
    const ready = mails.find((m) => m.subject.includes('print proof is ready'));
    expect(ready?.subject).toContain('DC-PR00F1');
    expect(ready?.text).toContain('approve it, or ask for changes');
    const shipped = mails.find((m) => m.subject.includes('on their way'));
    expect(shipped?.text).toContain('Courier: The Courier Guy');
    expect(shipped?.text).toContain('Tracking number: TCG123456');
    expect(shipped?.text).toContain('Note: Two cards <in> one box');
    expect(await sendRecorded(`order-state-changed-${shippedId}`)).toEqual([{ status: 'sent', recipient: 'sipho@example.test' }]);
  });

  it('sends the buyer of a paid order the receipt: reference, lines with quantities, total in rand, what happens next', async () => {
    const accountId = randomUUID();
    standInAccounts.set(accountId, {
      id: accountId,
      username: 'ayanda',
      email: 'ayanda@example.test',
      firstName: 'Ayanda',
      lastName: 'Dlamini',
      role: 'user',
      isVerified: true,
    });
    const orderId = randomUUID();
    const eventId = await service.publish(Events.orderPaid, {
      orderId,
      accountId,
      reference: 'DC-7K3M9Q',
      lines: [
        {
          itemId: 'pvc-special',
          name: 'PVC NFC Card Special',
          colour: 'White',
          quantity: 2,
          unitPriceCents: 89900,
          lineTotalCents: 179800,
          includedGoldMonths: 12,
        },
        {
          itemId: 'ssteel-card',
          name: 'Stainless Steel NFC Card',
          colour: 'Gold',
          quantity: 3,
          unitPriceCents: 56900,
          lineTotalCents: 170700,
          includedGoldMonths: 0,
        },
      ],
      totalCents: 350500,
      at: '2030-03-14T09:26:53.000Z',
    });
    const [mail] = await waitFor('the order receipt', () =>
      Promise.resolve(mailTo('ayanda@example.test').length ? mailTo('ayanda@example.test') : null),
    );
    expect(mail!.subject).toContain('DC-7K3M9Q');
    expect(mail!.text).toContain('Hi Ayanda');
    expect(mail!.text).toContain('Order reference: DC-7K3M9Q');
    expect(mail!.text).toContain('2 x PVC NFC Card Special in White (includes 12 months of DigiGold) at R899.00: R1,798.00');
    expect(mail!.text).toContain('3 x Stainless Steel NFC Card in Gold at R569.00: R1,707.00');
    expect(mail!.html).toContain('Stainless Steel NFC Card in Gold');
    expect(mail!.text).toContain('Total: R3,505.00');
    // 15/115 of R3,505.00, rounded to the cent.
    expect(mail!.text).toContain('Includes VAT at 15%: R457.17 (VAT number 4123456789)');
    // What happens next is the proof flow, not a promise that someone will be in touch.
    expect(mail!.text).toContain(
      'Then open Orders in your dashboard to approve the proof, or ask for changes. We print only the proof you approve.',
    );
    expect(mail!.text).not.toContain('get in touch');
    expect(await sendRecorded(`order-receipt-${eventId}`)).toEqual([{ status: 'sent', recipient: 'ayanda@example.test' }]);
  });

  it('sends no receipt when the buyer’s account is gone', async () => {
    const eventId = await service.publish(Events.orderPaid, {
      orderId: randomUUID(),
      accountId: randomUUID(),
      reference: 'DC-GONE23',
      lines: [
        { itemId: 'pvc-card', name: 'PVC NFC Card', quantity: 1, unitPriceCents: 36900, lineTotalCents: 36900, includedGoldMonths: 0 },
      ],
      totalCents: 36900,
      at: new Date().toISOString(),
    });
    await service.handled(Events.orderPaid, eventId);
    expect(await service.sql('SELECT 1 FROM notifications.mail_log WHERE job_id = $1', [`order-receipt-${eventId}`])).toEqual([]);
  });

  const account = (username: string) => {
    const id = randomUUID();
    standInAccounts.set(id, {
      id,
      username,
      email: `${username}@example.test`,
      firstName: username[0]!.toUpperCase() + username.slice(1),
      lastName: 'Test',
      role: 'user',
      isVerified: true,
    });
    return id;
  };

  it('sends a month’s receipt for a paid tier, with its VAT, and nothing for an order’s payment (orders sends that one)', async () => {
    const accountId = account('lwazi');
    await service.publish(Events.paymentCompleted, {
      paymentId: randomUUID(),
      accountId,
      kind: 'subscription',
      orderId: null,
      subscriptionId: randomUUID(),
      amountCents: 6900,
      pfPaymentId: '1001',
      completedAt: '2030-03-14T09:26:53.000Z',
      tier: 'DigiGold',
      paidUntil: '2030-04-14T09:26:53.000Z',
    });
    const orderPayment = await service.publish(Events.paymentCompleted, {
      paymentId: randomUUID(),
      accountId,
      kind: 'order',
      orderId: randomUUID(),
      subscriptionId: null,
      amountCents: 36900,
      pfPaymentId: '1002',
      completedAt: '2030-03-14T09:26:53.000Z',
      tier: null,
      paidUntil: null,
    });
    const [mail] = await waitFor('the membership receipt', () =>
      Promise.resolve(mailTo('lwazi@example.test').length ? mailTo('lwazi@example.test') : null),
    );
    expect(mail!.subject).toBe('[DigiCard] Your DigiGold membership is paid');
    expect(mail!.text).toContain('Amount: R69.00');
    expect(mail!.text).toContain('Includes VAT at 15%: R9.00');
    await service.handled(Events.paymentCompleted, orderPayment);
    expect(mailTo('lwazi@example.test')).toHaveLength(1);
  });

  it('tells the owner when a payment fails, and when the tier has ended', async () => {
    const accountId = account('nomsa');
    await service.publish(Events.paymentFailed, {
      paymentId: randomUUID(),
      accountId,
      subscriptionId: randomUUID(),
      tier: 'DigiSilver',
      amountCents: 4900,
      failedAt: '2030-03-14T09:26:53.000Z',
      graceUntil: '2030-03-21T09:26:53.000Z',
    });
    await service.publish(Events.membershipChanged, {
      accountId,
      membership: 'DigiShare',
      paidUntil: null,
      version: 3,
      changedAt: '2030-03-21T09:27:00.000Z',
    });
    await service.publish(Events.membershipChanged, {
      accountId,
      membership: 'DigiGold',
      paidUntil: '2030-04-21T09:27:00.000Z',
      version: 4,
      changedAt: '2030-03-22T09:27:00.000Z',
    });
    const mails = await waitFor('two emails', () =>
      Promise.resolve(mailTo('nomsa@example.test').length >= 2 ? mailTo('nomsa@example.test') : null),
    );
    const failed = mails.find((m) => m.subject.includes('did not go through'));
    expect(failed?.text).toContain('Your features stay until: 21 March 2030');
    const ended = mails.find((m) => m.subject === '[DigiCard] Your profile is on DigiShare again');
    expect(ended?.text).toContain('hidden, never deleted');
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(mailTo('nomsa@example.test')).toHaveLength(2);
  });

  it('says a membership has started on its first payment', async () => {
    const accountId = account('sipho');
    await service.publish(Events.paymentCompleted, {
      paymentId: randomUUID(),
      accountId,
      kind: 'subscription',
      orderId: null,
      subscriptionId: randomUUID(),
      amountCents: 4900,
      pfPaymentId: '2001',
      completedAt: '2030-03-14T09:26:53.000Z',
      tier: 'DigiSilver',
      paidUntil: '2030-04-14T09:26:53.000Z',
      startsMembership: true,
    });
    // Other tests of this file email the same address (an order's proof, say): look for this one by its subject.
    const started = () => mailTo('sipho@example.test').filter((m) => m.subject.includes('membership has started'));
    const [mail] = await waitFor('the started email', () => Promise.resolve(started().length ? started() : null));
    expect(mail!.subject).toBe('[DigiCard] Your DigiSilver membership has started');
    expect(mail!.text).toContain('Amount: R49.00');
    expect(mail!.html).toContain('R49.00');
  });

  it('tells the owner a cancelled membership is cancelled, in HTML and text, with the amount in rand and the day the tier ends', async () => {
    const accountId = account('zanele');
    const eventId = await service.publish(Events.subscriptionCancelled, {
      subscriptionId: randomUUID(),
      accountId,
      tier: 'DigiGold',
      monthlyPriceCents: 6900,
      endsAt: '2030-04-14T09:26:53.000Z',
      cancelledAt: '2030-03-20T10:00:00.000Z',
      by: 'owner',
    });
    const [mail] = await waitFor('the cancelled email', () =>
      Promise.resolve(mailTo('zanele@example.test').length ? mailTo('zanele@example.test') : null),
    );
    expect(mail!.subject).toBe('[DigiCard] Your DigiGold membership is cancelled');
    expect(mail!.text).toContain('You keep DigiGold until 14 April 2030');
    expect(mail!.text).toContain('Monthly amount: R69.00 (no longer charged)');
    expect(mail!.text).toContain('DigiGold until: 14 April 2030');
    expect(mail!.html).toContain('14 April 2030');
    expect(mail!.html).toContain('R69.00');
    // Delivered again: still one email.
    await service.publish(
      Events.subscriptionCancelled,
      {
        subscriptionId: randomUUID(),
        accountId,
        tier: 'DigiGold',
        monthlyPriceCents: 6900,
        endsAt: '2030-04-14T09:26:53.000Z',
        cancelledAt: '2030-03-20T10:00:00.000Z',
        by: 'owner',
      },
      eventId,
    );
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(mailTo('zanele@example.test')).toHaveLength(1);
  });

  it('tells the owner of an email someone tried to register with: sign in or reset the password', async () => {
    const accountId = account('busisiwe');
    await service.publish(Events.registrationAttempted, { accountId, attemptedAt: '2030-03-20T10:00:00.000Z' });
    const [mail] = await waitFor('the attempt email', () =>
      Promise.resolve(mailTo('busisiwe@example.test').length ? mailTo('busisiwe@example.test') : null),
    );
    expect(mail!.subject).toBe('[DigiCard] Someone tried to register with your email address');
    expect(mail!.text).toContain('Sign in: http://localhost:8080/login');
    expect(mail!.text).toContain('Reset Password');
    expect(mail!.html).toContain('href="http://localhost:8080/login"');
  });
});

import { Inject, Injectable } from '@nestjs/common';
import type { z } from 'zod';
import { Events } from '@digicard/contracts';
import { LOGGER, OnEvent, type EventContext } from '@digicard/server';
import type { Logger } from '@digicard/config';
import { AccountLookup } from './account-lookup.js';
import { EmailQueue } from './email.producer.js';

type Data<E extends { data: z.ZodType }> = z.output<E['data']>;

/**
 * The emails of a card order: the receipt once paid, each later move of the order. One job per event, its id derived
 * from the event, so a redelivered event never sends twice.
 */
@Injectable()
export class OrderEmails {
  constructor(
    @Inject(EmailQueue) private readonly emails: EmailQueue,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(AccountLookup) private readonly accounts: AccountLookup,
  ) {}

  /** Only a paid order gets a receipt (a placed one may never be paid). */
  @OnEvent(Events.orderPaid)
  async orderPaid(order: Data<typeof Events.orderPaid>, { eventId, tx, afterCommit }: EventContext): Promise<void> {
    const buyer = await this.accounts.accountOf(order.accountId, eventId);
    if (!buyer) {
      this.logger.warn({ eventId, orderId: order.orderId }, 'order paid by an account that is gone: no receipt');
      return;
    }
    await this.emails.queueAfterCommit(
      { tx, afterCommit },
      {
        template: 'order-receipt',
        sourceEventId: eventId,
        to: buyer.email,
        firstName: buyer.firstName,
        reference: order.reference,
        lines: order.lines,
        totalCents: order.totalCents,
        paidAt: order.at,
      },
    );
  }

  /** Every move of an order after payment: the owner hears each one (the payment itself sends the receipt). */
  @OnEvent(Events.orderStateChanged)
  async orderStateChanged(change: Data<typeof Events.orderStateChanged>, { eventId, tx, afterCommit }: EventContext): Promise<void> {
    const owner = await this.accounts.accountOf(change.accountId, eventId);
    if (!owner) {
      this.logger.warn({ eventId, orderId: change.orderId }, 'order moved for an account that is gone: no email');
      return;
    }
    await this.emails.queueAfterCommit(
      { tx, afterCommit },
      {
        template: 'order-state-changed',
        sourceEventId: eventId,
        to: owner.email,
        firstName: owner.firstName,
        reference: change.reference,
        from: change.from,
        status: change.to,
        by: change.by,
        note: change.note,
        courier: change.courier,
        trackingNumber: change.trackingNumber,
        at: change.at,
      },
    );
  }
}

import { Inject, Injectable } from '@nestjs/common';
import { Events, type PaymentCompleted } from '@digicard/contracts';
import { OnEvent, type EventContext } from '@digicard/server';
import { MarkOrderPaid } from '../use-cases/mark-order-paid.use-case.js';

/** Payments' events about orders: `payments.payment.completed` for an order marks it paid (`MarkOrderPaid`). */
@Injectable()
export class OrderPayments {
  constructor(@Inject(MarkOrderPaid) private readonly markOrderPaid: MarkOrderPaid) {}

  @OnEvent(Events.paymentCompleted)
  paymentCompleted(payment: PaymentCompleted, context: EventContext): Promise<void> {
    return this.markOrderPaid.execute(payment, context);
  }
}

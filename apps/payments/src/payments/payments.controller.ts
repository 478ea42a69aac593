import { Controller, Inject } from '@nestjs/common';
import { Rpc } from '@digicard/contracts';
import { Handles, type RpcBody, type SignedInMeta } from '@digicard/server';
import { PaymentsAccountData } from './account-data-queries.js';
import { PaymentsQueries } from './payments-queries.js';
import { CancelMembership } from './use-cases/cancel-membership.use-case.js';
import { ChangeMembership } from './use-cases/change-membership.use-case.js';
import { GetBilling } from './use-cases/get-billing.use-case.js';
import { ListPlans } from './use-cases/list-plans.use-case.js';
import { ReceiveItn } from './use-cases/receive-itn.use-case.js';
import { StartMembership } from './use-cases/start-membership.use-case.js';
import { StartOrderPayment } from './use-cases/start-order-payment.use-case.js';
import { StartSpecialPayment } from './use-cases/start-special-payment.use-case.js';

/** The payments service's subjects: each checked against its contract by @Handles, each one call. */
@Controller()
export class PaymentsController {
  constructor(
    @Inject(ListPlans) private readonly plans: ListPlans,
    @Inject(StartOrderPayment) private readonly startOrderPayment: StartOrderPayment,
    @Inject(StartSpecialPayment) private readonly startSpecialPayment: StartSpecialPayment,
    @Inject(StartMembership) private readonly startMembership: StartMembership,
    @Inject(CancelMembership) private readonly cancelMembership: CancelMembership,
    @Inject(ChangeMembership) private readonly changeMembership: ChangeMembership,
    @Inject(GetBilling) private readonly billing: GetBilling,
    @Inject(ReceiveItn) private readonly receiveItn: ReceiveItn,
    @Inject(PaymentsAccountData) private readonly accountData: PaymentsAccountData,
    @Inject(PaymentsQueries) private readonly queries: PaymentsQueries,
  ) {}

  @Handles(Rpc.exportPaymentsData)
  exportData(page: RpcBody<typeof Rpc.exportPaymentsData>, meta: SignedInMeta) {
    return this.accountData.export(meta.userId, page);
  }

  @Handles(Rpc.listPlans)
  list() {
    return Promise.resolve(this.plans.execute());
  }

  @Handles(Rpc.startOrderPayment)
  orderPayment({ orderId }: RpcBody<typeof Rpc.startOrderPayment>, meta: SignedInMeta) {
    return this.startOrderPayment.execute(orderId, meta);
  }

  @Handles(Rpc.startSpecialPayment)
  specialPayment({ orderId }: RpcBody<typeof Rpc.startSpecialPayment>, meta: SignedInMeta) {
    return this.startSpecialPayment.execute(orderId, meta);
  }

  @Handles(Rpc.startMembership)
  start({ tier }: RpcBody<typeof Rpc.startMembership>, meta: SignedInMeta) {
    return this.startMembership.execute(tier, meta);
  }

  @Handles(Rpc.cancelMembership)
  cancel(_: object, meta: SignedInMeta) {
    return this.cancelMembership.execute(meta.userId);
  }

  @Handles(Rpc.changeMembership)
  change({ tier }: RpcBody<typeof Rpc.changeMembership>, meta: SignedInMeta) {
    return this.changeMembership.execute(tier, meta.userId);
  }

  @Handles(Rpc.getBilling)
  get(_: object, meta: SignedInMeta) {
    return this.billing.execute(meta.userId);
  }

  @Handles(Rpc.listPayments)
  payments(page: RpcBody<typeof Rpc.listPayments>, meta: SignedInMeta) {
    return this.queries.history(meta.userId, page);
  }

  /** Staff: the payments to pay back by hand, a page at a time (payments checks the role again from meta). */
  @Handles(Rpc.staffRefundsDue)
  refundsDue(page: RpcBody<typeof Rpc.staffRefundsDue>) {
    return this.queries.refundsDue(page);
  }

  @Handles(Rpc.receiveItn)
  itn({ rawBody, sourceIp }: RpcBody<typeof Rpc.receiveItn>) {
    return this.receiveItn.execute(rawBody, sourceIp);
  }
}

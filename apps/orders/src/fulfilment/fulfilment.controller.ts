import { Controller, Inject } from '@nestjs/common';
import { Rpc } from '@digicard/contracts';
import { Handles, type RpcBody, type SignedInMeta } from '@digicard/server';
import { OrdersAccountData } from './account-data-queries.js';
import { FulfilmentQueries } from './fulfilment-queries.js';
import { AssignCard } from './use-cases/assign-card.use-case.js';
import { CancelOrder } from './use-cases/cancel-order.use-case.js';
import { DecideProof } from './use-cases/decide-proof.use-case.js';
import { MoveOrderByPrintTeam } from './use-cases/move-order.use-case.js';
import { RecordCardChip } from './use-cases/record-card.use-case.js';
import { RoleCheck } from './role-check.js';
import { RerenderProof } from './use-cases/rerender-proof.use-case.js';
import { SetCardDisabled } from './use-cases/set-card-disabled.use-case.js';

/**
 * The owner's side of printing (always their own orders and cards: the account comes from `meta`), the print
 * console's (role `print`, checked by `@Handles` from the contract, a second time after the gateway, and a third
 * against identity's records by `RoleCheck`), the staff console's failed proofs (role `staff`, likewise), and
 * `/c/{serial}`.
 */
@Controller()
export class FulfilmentController {
  constructor(
    @Inject(FulfilmentQueries) private readonly queries: FulfilmentQueries,
    @Inject(DecideProof) private readonly decide: DecideProof,
    @Inject(CancelOrder) private readonly cancelOrder: CancelOrder,
    @Inject(MoveOrderByPrintTeam) private readonly moveOrder: MoveOrderByPrintTeam,
    @Inject(RecordCardChip) private readonly recordCardChip: RecordCardChip,
    @Inject(RerenderProof) private readonly rerender: RerenderProof,
    @Inject(SetCardDisabled) private readonly setDisabled: SetCardDisabled,
    @Inject(AssignCard) private readonly assign: AssignCard,
    @Inject(OrdersAccountData) private readonly accountData: OrdersAccountData,
    @Inject(RoleCheck) private readonly roles: RoleCheck,
  ) {}

  @Handles(Rpc.exportOrdersData)
  exportData(page: RpcBody<typeof Rpc.exportOrdersData>, meta: SignedInMeta) {
    return this.accountData.export(meta, page);
  }

  @Handles(Rpc.listOrderDetails)
  details(page: RpcBody<typeof Rpc.listOrderDetails>, meta: SignedInMeta) {
    return this.queries.ownDetails(meta.userId, page);
  }

  @Handles(Rpc.cancelOrder)
  cancel({ orderId }: RpcBody<typeof Rpc.cancelOrder>, meta: SignedInMeta) {
    return this.cancelOrder.execute(meta.userId, orderId);
  }

  @Handles(Rpc.approveProof)
  approve({ orderId }: RpcBody<typeof Rpc.approveProof>, meta: SignedInMeta) {
    return this.decide.approve(meta.userId, orderId);
  }

  @Handles(Rpc.requestProofChanges)
  requestChanges({ orderId, note }: RpcBody<typeof Rpc.requestProofChanges>, meta: SignedInMeta) {
    return this.decide.requestChanges(meta.userId, orderId, note);
  }

  @Handles(Rpc.ownProofFile)
  ownProof({ orderId, kind }: RpcBody<typeof Rpc.ownProofFile>, meta: SignedInMeta) {
    return this.queries.proofFile(meta.userId, orderId, kind);
  }

  @Handles(Rpc.setCardDisabled)
  setCardDisabled({ serial, disabled }: RpcBody<typeof Rpc.setCardDisabled>, meta: SignedInMeta) {
    return this.setDisabled.execute(meta.userId, serial, disabled);
  }

  @Handles(Rpc.assignCard)
  assignCard({ serial, accountId }: RpcBody<typeof Rpc.assignCard>, meta: SignedInMeta) {
    return this.assign.execute(meta.userId, serial, accountId);
  }

  @Handles(Rpc.resolveCard)
  resolve({ serial }: RpcBody<typeof Rpc.resolveCard>) {
    return this.queries.resolveCard(serial);
  }

  @Handles(Rpc.printQueue)
  async queue(page: RpcBody<typeof Rpc.printQueue>, meta: SignedInMeta) {
    await this.roles.assert(meta, 'print');
    return this.queries.printQueue(page);
  }

  @Handles(Rpc.printOrder)
  async printOrder({ orderId }: RpcBody<typeof Rpc.printOrder>, meta: SignedInMeta) {
    await this.roles.assert(meta, 'print');
    return this.queries.printOrder(orderId);
  }

  @Handles(Rpc.printProofFile)
  async printProof({ orderId, kind }: RpcBody<typeof Rpc.printProofFile>, meta: SignedInMeta) {
    await this.roles.assert(meta, 'print');
    return this.queries.proofFile(null, orderId, kind);
  }

  @Handles(Rpc.moveOrder)
  async move({ orderId, ...move }: RpcBody<typeof Rpc.moveOrder>, meta: SignedInMeta) {
    await this.roles.assert(meta, 'print');
    return this.moveOrder.execute(meta.userId, orderId, move);
  }

  @Handles(Rpc.recordCard)
  async recordCard({ orderId, serial, nfcUid }: RpcBody<typeof Rpc.recordCard>, meta: SignedInMeta) {
    await this.roles.assert(meta, 'print');
    return this.recordCardChip.execute(orderId, serial, nfcUid);
  }

  @Handles(Rpc.rerenderProof)
  async rerenderProof({ orderId }: RpcBody<typeof Rpc.rerenderProof>, meta: SignedInMeta) {
    await this.roles.assert(meta, 'print');
    return this.rerender.execute(orderId);
  }

  @Handles(Rpc.staffFailedProofs)
  async failedProofs(page: RpcBody<typeof Rpc.staffFailedProofs>, meta: SignedInMeta) {
    await this.roles.assert(meta, 'staff');
    return this.queries.failedProofs(page);
  }

  @Handles(Rpc.staffRerenderProof)
  async staffRerenderProof({ orderId }: RpcBody<typeof Rpc.staffRerenderProof>, meta: SignedInMeta) {
    await this.roles.assert(meta, 'staff');
    return this.rerender.execute(orderId);
  }

  @Handles(Rpc.packingSlip)
  async packingSlip({ orderId }: RpcBody<typeof Rpc.packingSlip>, meta: SignedInMeta) {
    await this.roles.assert(meta, 'print');
    return this.queries.packingSlip(orderId);
  }
}

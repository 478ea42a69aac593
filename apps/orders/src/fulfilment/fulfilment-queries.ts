import { Inject, Injectable } from '@nestjs/common';
import type { CardTarget, FileData, OrderDetail, OrderDetailList, PageRequest, PrintOrder, PrintQueue } from '@digicard/contracts';
import type { Database } from '@digicard/db';
import { CONFIG, DATABASE, ServiceError, pageStart, toPage, type KeysetPosition } from '@digicard/server';
import type { Config } from '../config.js';
import { OrdersRepository, type OrderRow, type StoredOrder } from '../orders/orders.repository.js';
import { toOrderDetail } from './fulfilment.mapping.js';
import { FulfilmentRepository } from './fulfilment.repository.js';
import { CardsRepository } from './cards.repository.js';
import { CustomersRepository } from './customers.repository.js';
import { ProofsRepository } from './proofs.repository.js';
import { renderPackingSlip } from './packing-slip.js';
import { ProfilesClient } from './profiles-client.js';

const NOT_FOUND = 'Order not found.';
const CARD_NOT_FOUND = 'Card not found.';

/** Orders with their proof, cards and history, as the owner and the print console read them; files; cards. */
@Injectable()
export class FulfilmentQueries {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(CONFIG) private readonly config: Config,
    @Inject(OrdersRepository) private readonly orders: OrdersRepository,
    @Inject(FulfilmentRepository) private readonly repo: FulfilmentRepository,
    @Inject(CardsRepository) private readonly cards: CardsRepository,
    @Inject(CustomersRepository) private readonly customers: CustomersRepository,
    @Inject(ProofsRepository) private readonly proofs: ProofsRepository,
    @Inject(ProfilesClient) private readonly profiles: ProfilesClient,
  ) {}

  async details(stored: StoredOrder[]): Promise<OrderDetail[]> {
    const ids = stored.map((s) => s.order.id);
    const [proofs, cards, history] = await Promise.all([
      this.proofs.proofsOf(this.db, ids),
      this.cards.cardsOf(this.db, ids),
      this.repo.historyOf(this.db, ids),
    ]);
    return stored.map((s) =>
      toOrderDetail(
        s,
        {
          proof: proofs.find((p) => p.orderId === s.order.id),
          cards: cards.filter((c) => c.orderId === s.order.id),
          history: history.filter((h) => h.orderId === s.order.id),
        },
        this.config.PUBLIC_URL,
      ),
    );
  }

  /** A page of the owner's orders with what the Orders section shows; newest first. */
  async ownDetails(accountId: string, request: PageRequest): Promise<OrderDetailList> {
    const { items, nextCursor } = await this.ownDetailsPage(accountId, pageStart(request), request.limit);
    return { orders: items, nextCursor };
  }

  /** The same page, after a position (the data export reads the orders this way too). */
  async ownDetailsPage(accountId: string, start: KeysetPosition | null, limit: number, part?: number) {
    const rows = await this.orders.pageFor(this.db, accountId, start, limit);
    return toPage(rows, limit, (page) => this.details(page), part);
  }

  async ownDetail(accountId: string, orderId: string): Promise<OrderDetail> {
    const stored = await this.orders.byId(this.db, orderId);
    if (!stored || stored.order.accountId !== accountId) throw ServiceError.notFound(NOT_FOUND);
    return (await this.details([stored]))[0]!;
  }

  private async printOrders(stored: StoredOrder[]): Promise<PrintOrder[]> {
    const details = await this.details(stored);
    const customers = await this.customers.customersOf(this.db, [...new Set(stored.map((s) => s.order.accountId))]);
    return details.map((detail, i) => {
      const customer = customers.find((c) => c.accountId === stored[i]!.order.accountId);
      return { ...detail, customer: customer ? { name: customer.name, username: customer.username } : null };
    });
  }

  /** A page of the print team's queue, newest payment first. */
  async printQueue(request: PageRequest): Promise<PrintQueue> {
    const rows = await this.repo.printQueuePage(this.db, pageStart(request), request.limit);
    return this.printPage(rows, request.limit);
  }

  /** The staff console's read view, a page at a time: the orders whose proof failed, with the error, cards and history. */
  async failedProofs(request: PageRequest): Promise<PrintQueue> {
    const rows = await this.repo.failedProofOrdersPage(this.db, pageStart(request), request.limit);
    return this.printPage(rows, request.limit);
  }

  private async printPage(rows: Array<{ order: OrderRow; position: string }>, limit: number): Promise<PrintQueue> {
    const positioned = rows.map((r) => ({ ...r, id: r.order.id }));
    const { items, nextCursor } = await toPage(positioned, limit, async (page) =>
      this.printOrders(
        await this.orders.withLinesOf(
          this.db,
          page.map((r) => r.order),
        ),
      ),
    );
    return { orders: items, nextCursor };
  }

  /** One order of the print console; never paid (awaiting payment, or cancelled before paying): not the print team's. */
  async printOrder(orderId: string): Promise<PrintOrder> {
    const stored = await this.orders.byId(this.db, orderId);
    if (!stored || stored.order.paidAt === null) throw ServiceError.notFound(NOT_FOUND);
    return (await this.printOrders([stored]))[0]!;
  }

  /** The order the print team has just moved, whatever its state (an unpaid one they cancelled, too). */
  async movedOrder(orderId: string): Promise<PrintOrder> {
    const stored = await this.orders.byId(this.db, orderId);
    if (!stored) throw ServiceError.notFound(NOT_FOUND);
    return (await this.printOrders([stored]))[0]!;
  }

  /** The proof's PDF or PNG; 404 until one is rendered. `accountId` null: the print team (any paid order). */
  async proofFile(accountId: string | null, orderId: string, kind: 'pdf' | 'png'): Promise<FileData> {
    const stored = await this.orders.byId(this.db, orderId);
    if (!stored || (accountId !== null && stored.order.accountId !== accountId)) throw ServiceError.notFound(NOT_FOUND);
    const file = await this.proofs.proofFile(this.db, orderId, kind);
    if (!file?.bytes) throw ServiceError.notFound('No proof yet: it is being rendered.');
    return {
      contentType: kind === 'pdf' ? 'application/pdf' : 'image/png',
      fileName: `proof-${stored.order.reference}-v${file.version}.${kind}`,
      dataBase64: file.bytes.toString('base64'),
    };
  }

  async packingSlip(orderId: string): Promise<FileData> {
    const order = await this.printOrder(orderId);
    const pdf = await renderPackingSlip(order);
    return { contentType: 'application/pdf', fileName: `packing-slip-${order.reference}.pdf`, dataBase64: pdf.toString('base64') };
  }

  /** Where `/c/{serial}` goes. The username comes from the projection, else from profiles (and is kept). */
  async resolveCard(serial: string): Promise<CardTarget> {
    const card = await this.cards.cardBySerial(this.db, serial);
    if (!card) throw ServiceError.notFound(CARD_NOT_FOUND);
    if (card.disabledAt) return { status: 'disabled' };
    // A card a team leader reassigned opens the rep's page; any other, its buyer's.
    const accountId = card.assignedAccountId ?? card.accountId;
    const [customer] = await this.customers.customersOf(this.db, [accountId]);
    if (customer) return { status: 'active', username: customer.username };
    const profile = await this.profiles.profileOf(accountId, `card-${serial}`);
    if (!profile) throw ServiceError.notFound(CARD_NOT_FOUND);
    await this.customers.upsertCustomer(this.db, {
      accountId,
      username: profile.username,
      name: `${profile.firstName} ${profile.lastName}`.trim(),
    });
    return { status: 'active', username: profile.username };
  }
}

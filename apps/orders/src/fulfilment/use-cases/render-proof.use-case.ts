import { Inject, Injectable } from '@nestjs/common';
import { Events, ProofRenderJobSchema, type ProofRenderJob } from '@digicard/contracts';
import { withSpan, SpanKind, type Logger } from '@digicard/config';
import type { Database } from '@digicard/db';
import { recordEvent, type OutboxRelay } from '@digicard/messaging';
import { CONFIG, DATABASE, LOGGER, OUTBOX_RELAY, proofRenderSeconds } from '@digicard/server';
import type { Config } from '../../config.js';
import { outbox } from '../../db/schema.js';
import { OrdersRepository } from '../../orders/orders.repository.js';
import { proofInputs, proofInputsOf, renderProof } from '../../proofs/render-proof.js';
import { cardUrl } from '../fulfilment.mapping.js';
import { CardsRepository } from '../cards.repository.js';
import { CustomersRepository } from '../customers.repository.js';
import { ProofsRepository } from '../proofs.repository.js';
import { OrderStateMachine } from '../order-state-machine.js';
import { ProfilesClient } from '../profiles-client.js';

/** `superseded`: a newer render was asked for while this one ran; it is queued again (see the worker). */
export type ProofJobResult = { status: 'rendered'; version: number } | { status: 'skipped'; reason: string } | { status: 'superseded' };

/** States in which the proof may still change: after them, the approved proof is what gets printed. */
const RENDERABLE = new Set(['paid', 'proof-ready', 'changes-requested']);

/**
 * One `proof-render` job: the buyer's profile (asked of profiles), the order's cards, the PDF and PNG; then, in one
 * transaction, the proof stored, `orders.proof.ready`, and the order moved to proof ready (by the system) when it
 * was paid or had changes requested. A failure is thrown for BullMQ to retry; `failed` records it (see the worker).
 * A proof that is ready and was drawn from the same card fields is not drawn again (a profile save that changed
 * nothing on the card); a render asked for again while this one ran is not stored, but run again.
 */
@Injectable()
export class RenderProof {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(OUTBOX_RELAY) private readonly relay: OutboxRelay | null,
    @Inject(CONFIG) private readonly config: Config,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(OrdersRepository) private readonly orders: OrdersRepository,
    @Inject(CardsRepository) private readonly cards: CardsRepository,
    @Inject(CustomersRepository) private readonly customers: CustomersRepository,
    @Inject(ProofsRepository) private readonly proofs: ProofsRepository,
    @Inject(OrderStateMachine) private readonly states: OrderStateMachine,
    @Inject(ProfilesClient) private readonly profiles: ProfilesClient,
  ) {}

  async execute(input: ProofRenderJob, attempt: number): Promise<ProofJobResult> {
    const job = ProofRenderJobSchema.parse(input);
    const stored = await this.orders.byId(this.db, job.orderId);
    if (!stored) return { status: 'skipped', reason: 'no such order' };
    if (!RENDERABLE.has(stored.order.status)) return this.settle(job.orderId, `order is ${stored.order.status}`);
    // When this render was asked for: a newer ask (proofRendering) while it runs moves it on.
    const [asked] = await this.proofs.proofsOf(this.db, [job.orderId]);
    const profile = await this.profiles.cardProfile(stored.order.accountId, `proof-${job.orderId}`);
    if (!profile) throw new Error('the buyer has no profile to print');
    const cards = await this.cards.cardsOf(this.db, [job.orderId]);
    if (cards.length === 0) throw new Error('the order has no cards');
    const faces = cards.map((card) => ({
      name: profile.name,
      title: profile.title,
      businessName: profile.businessName,
      logo: profile.logo,
      url: cardUrl(this.config.PUBLIC_URL, card.serial),
      serial: card.serial,
      material: card.material,
      colour: card.colour,
    }));
    // A profile save, and the proof on file shows these very fields and awaits the owner's approval: nothing to draw.
    const inputs = proofInputs(faces, { username: profile.username });
    if (job.reason === 'profile-updated' && stored.order.status === 'proof-ready' && (asked?.version ?? 0) > 0) {
      const pdf = await this.proofs.proofFile(this.db, job.orderId, 'pdf');
      if (pdf?.bytes && proofInputsOf(pdf.bytes) === inputs) return this.settle(job.orderId, 'the card fields did not change');
    }
    const endTimer = proofRenderSeconds.startTimer();
    const files = await withSpan('proof render', { kind: SpanKind.INTERNAL, attributes: { 'digicard.cards': faces.length } }, () =>
      renderProof(faces, inputs),
    ).finally(endTimer);
    const result = await this.db.transaction(async (tx): Promise<ProofJobResult> => {
      const order = await this.orders.lockById(tx, job.orderId);
      if (!order || !RENDERABLE.has(order.status)) return { status: 'skipped', reason: `order is ${order?.status ?? 'gone'}` };
      const [now] = await this.proofs.proofsOf(tx, [order.id]);
      if (asked && now && now.error === null && now.updatedAt.getTime() > asked.updatedAt.getTime()) return { status: 'superseded' };
      const version = await this.proofs.proofRendered(tx, order.id, files, attempt);
      await this.customers.upsertCustomer(tx, { accountId: order.accountId, username: profile.username, name: profile.name });
      await recordEvent(tx, outbox, Events.proofReady, {
        orderId: order.id,
        accountId: order.accountId,
        reference: order.reference,
        version,
        at: new Date().toISOString(),
      });
      if (order.status !== 'proof-ready') await this.states.move(tx, order, 'proof-ready', { by: 'system', accountId: null });
      return { status: 'rendered', version };
    });
    this.relay?.kick();
    this.logger.info({ orderId: job.orderId, reason: job.reason, result }, 'proof render done');
    return result;
  }

  /** The order moved past approval while a render waited: nothing to render; a proof on file stays the proof. */
  private async settle(orderId: string, reason: string): Promise<ProofJobResult> {
    await this.proofs.proofSettled(this.db, orderId);
    return { status: 'skipped', reason };
  }

  async recordFailure(orderId: string, error: string, attempts: number, final: boolean): Promise<void> {
    await this.proofs.proofAttemptFailed(this.db, orderId, error.slice(0, 500), attempts, final);
  }
}

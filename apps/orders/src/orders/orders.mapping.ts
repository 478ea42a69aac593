import type { Order, OrderLine } from '@digicard/contracts';
import type { StoredOrder } from './orders.repository.js';

/** A stored order as the contracts show it (the buyer's account is not part of it). */
export const toOrder = ({ order, lines }: StoredOrder): Order => ({
  id: order.id,
  reference: order.reference,
  status: order.status,
  lines: lines.map((l): OrderLine => ({
    itemId: l.itemId,
    kind: l.kind,
    name: l.name,
    quantity: l.quantity,
    unitPriceCents: l.unitPriceCents,
    lineTotalCents: l.lineTotalCents,
    includedGoldMonths: l.includedGoldMonths,
    colour: l.colour,
  })),
  totalCents: order.totalCents,
  createdAt: order.createdAt.toISOString(),
  paidAt: order.paidAt?.toISOString() ?? null,
});

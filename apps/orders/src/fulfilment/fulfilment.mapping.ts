import type { Card, OrderDetail, OrderHistoryEntry, Proof } from '@digicard/contracts';
import { toOrder } from '../orders/orders.mapping.js';
import type { StoredOrder } from '../orders/orders.repository.js';
import type { CardRow } from './cards.repository.js';
import type { HistoryRow } from './fulfilment.repository.js';
import type { ProofRow } from './proofs.repository.js';

export const cardUrl = (publicUrl: string, serial: string): string => `${publicUrl}/c/${serial}`;

export const toCard = (row: CardRow, publicUrl: string): Card => ({
  serial: row.serial,
  url: cardUrl(publicUrl, row.serial),
  material: row.material,
  colour: row.colour,
  nfcUid: row.nfcUid,
  disabled: row.disabledAt !== null,
  assignedTo: row.assignedAccountId,
});

export const toProof = (row: ProofRow): Proof => ({
  status: row.status,
  version: row.version,
  attempts: row.attempts,
  error: row.error,
  renderedAt: row.renderedAt?.toISOString() ?? null,
});

export const toHistoryEntry = (row: HistoryRow): OrderHistoryEntry => ({
  from: row.fromStatus,
  to: row.toStatus,
  by: row.actor,
  note: row.note,
  at: row.at.toISOString(),
});

export function toOrderDetail(
  stored: StoredOrder,
  parts: { proof: ProofRow | undefined; cards: CardRow[]; history: HistoryRow[] },
  publicUrl: string,
): OrderDetail {
  const { order } = stored;
  return {
    ...toOrder(stored),
    proof: parts.proof ? toProof(parts.proof) : null,
    cards: parts.cards.map((c) => toCard(c, publicUrl)),
    history: parts.history.map(toHistoryEntry),
    shipment: order.courier && order.trackingNumber ? { courier: order.courier, trackingNumber: order.trackingNumber } : null,
  };
}

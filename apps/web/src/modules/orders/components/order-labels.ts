import { SA_TIME_ZONE } from '@digicard/domain';
import type { OrderActor, OrderStatus, Proof } from '@digicard/contracts';

export const StatusText: Record<OrderStatus, string> = {
  'awaiting-payment': 'Awaiting payment',
  paid: 'Paid: preparing your proof',
  cancelled: 'Cancelled',
  'proof-ready': 'Proof ready for your approval',
  'changes-requested': 'Changes requested',
  approved: 'Approved: waiting to print',
  printing: 'Printing',
  'nfc-encoded': 'NFC chips encoded',
  shipped: 'Shipped',
  delivered: 'Delivered',
  refunded: 'Refunded',
};

export const ActorText: Record<OrderActor, string> = { system: 'DigiCard', owner: 'You', print: 'Print team' };

export function proofText(proof: Proof | null): string | null {
  if (!proof) return null;
  if (proof.status === 'rendering')
    return proof.error ? `Rendering the proof again (last attempt failed: ${proof.error})` : 'Rendering the proof…';
  if (proof.status === 'failed')
    return `The proof could not be rendered (${proof.error ?? 'unknown error'}). The print team has been told and will render it again.`;
  return null;
}

const moment = new Intl.DateTimeFormat('en-ZA', { dateStyle: 'medium', timeStyle: 'short', timeZone: SA_TIME_ZONE });
export const when = (iso: string): string => moment.format(new Date(iso));

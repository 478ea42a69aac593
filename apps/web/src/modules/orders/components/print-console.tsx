import {
  MoveOrderSchema,
  movesFrom,
  OrderStatuses,
  OrderStatusSchema,
  RecordCardSchema,
  type ApiError,
  type Card,
  type MoveOrder,
  type OrderStatus,
  type PrintOrder,
  type PrintQueue,
} from '@digicard/contracts';
import { Button, confirm, Container, FormAlert } from '@digicard/ui';
import { useState } from 'react';
import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { z } from 'zod';
import { useOwnerPages } from '../../api/use-owner-pages';
import { useContractForm } from '../../forms/hooks/use-contract-form';
import { applyApiError } from '../../forms/utils/apply-api-error';
import { LoadFailed } from '../../site/components/load-failed';
import { LoadMore } from '../../site/components/load-more';
import { fetchPrintQueue, moveOrder, printFileUrls, recordCard, rerenderProof } from '../api/orders';
import { proofText, StatusText, when } from './order-labels';
import { StatusHistory } from './status-history';
import '../orders.css';
import { QueryProvider } from '../../api/query-client';

/** The order the queue shows its states in: the work first, the finished last. */
const QUEUE_ORDER: readonly OrderStatus[] = [
  'paid',
  'changes-requested',
  'proof-ready',
  'approved',
  'printing',
  'nfc-encoded',
  'shipped',
  'delivered',
  'cancelled',
  'refunded',
];

/**
 * The print console: the queue by state, each order's proof (PNG and PDF), the moves the order can make now, each
 * card's NFC UID while printing, the courier and tracking number when shipping, and the packing slip.
 */
function PrintConsole() {
  const { state, retry, update, hasMore, more, loadMore } = useOwnerPages<'orders', PrintOrder, PrintQueue>(
    ['print-queue'],
    'orders',
    fetchPrintQueue,
    'The queue could not be loaded.',
  );
  const [filter, setFilter] = useState<OrderStatus | 'all'>('all');
  if (state.status === 'loading') return <p role="status">Loading...</p>;
  if (state.status === 'failed') return <LoadFailed message={state.message} retry={retry} />;
  const queue: PrintQueue = state.value;
  const changed = (order: PrintOrder) =>
    update((shown) => ({ ...shown, orders: shown.orders.map((o) => (o.id === order.id ? order : o)) }));
  const counts = new Map<OrderStatus, number>();
  for (const o of queue.orders) counts.set(o.status, (counts.get(o.status) ?? 0) + 1);
  const groups = QUEUE_ORDER.filter((s) => (filter === 'all' || filter === s) && counts.get(s));
  return (
    <Container className="page print-console">
      <h1 className="page__title">Print console</h1>
      <div className="print-console__filters" role="group" aria-label="Show orders that are">
        <Button type="button" variant={filter === 'all' ? 'primary' : 'secondary'} onClick={() => setFilter('all')}>
          {`All (${queue.orders.length})`}
        </Button>
        {QUEUE_ORDER.filter((s) => counts.get(s)).map((s) => (
          <Button key={s} type="button" variant={filter === s ? 'primary' : 'secondary'} onClick={() => setFilter(s)}>
            {`${StatusText[s]} (${counts.get(s)})`}
          </Button>
        ))}
        <Button type="button" variant="secondary" onClick={retry}>
          Refresh
        </Button>
      </div>
      {groups.length === 0 ? <p>No orders to print.</p> : null}
      {groups.map((status) => (
        <section key={status} aria-labelledby={`group-${status}`} className="print-console__group">
          <h2 id={`group-${status}`}>{StatusText[status]}</h2>
          <ul className="orders">
            {queue.orders
              .filter((o) => o.status === status)
              .map((order) => (
                <PrintOrderCard key={order.id} order={order} onChange={changed} />
              ))}
          </ul>
        </section>
      ))}
      <LoadMore list="orders" hasMore={hasMore} more={more} onLoadMore={() => void loadMore()} />
    </Container>
  );
}

type Result = { ok: true; data: PrintOrder } | { ok: false; error: ApiError };
/** How a form's refusal lands: its field errors on its fields, the rest returned for the order's alert. */
type PlaceErrors = (error: ApiError) => string | null;

/**
 * The move form as typed (the note, and the courier and tracking number when shipping), with the move its button
 * chose: the contract's MoveOrderSchema checks it (courier and tracking number required to ship); a blank note, and
 * the courier and tracking number of any other move, are left out.
 */
export const MoveFormSchema = z
  .object({ to: OrderStatusSchema, note: z.string(), courier: z.string(), trackingNumber: z.string() })
  .transform(({ to, note, courier, trackingNumber }) => ({
    to,
    ...(note.trim() ? { note } : {}),
    ...(to === 'shipped' ? { courier, trackingNumber } : {}),
  }))
  .pipe(MoveOrderSchema);
const MOVE_FIELDS = ['note', 'courier', 'trackingNumber'] as const;

/** The error under a plain input of the console (`<id>-error`, as the ui TextField names it). */
function InputError({ id, message }: { id: string; message: string | undefined }) {
  return message ? (
    <p id={`${id}-error`} className="ui-field__error">
      {message}
    </p>
  ) : null;
}
const described = (id: string, message: string | undefined) =>
  message ? { 'aria-invalid': true as const, 'aria-describedby': `${id}-error` } : {};

function placing<T extends FieldValues>(fields: readonly Path<T>[], setError: UseFormSetError<T>): PlaceErrors {
  return (error) => applyApiError(error, fields, setError, error.message);
}

function PrintOrderCard({ order, onChange }: { order: PrintOrder; onChange: (o: PrintOrder) => void }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const move = useContractForm(MoveFormSchema, { to: order.status, note: '', courier: '', trackingNumber: '' });
  const moveErrors = move.formState.errors;
  const moves = movesFrom(order.status, 'print').filter((to) => OrderStatuses.includes(to));
  const urls = printFileUrls(order.id, order.proof?.version ?? 0);
  const proofNotice = proofText(order.proof);

  /** An action on the order; a refusal is the order's alert, or (a form's) on the form's fields. */
  async function run(action: () => Promise<Result>, place?: PlaceErrors) {
    setBusy(true);
    setError(null);
    const result = await action();
    setBusy(false);
    if (result.ok) {
      onChange(result.data);
      move.resetField('note');
    } else if (place) {
      setError(place(result.error));
    } else {
      const fields = result.error.fieldErrors ? Object.values(result.error.fieldErrors).flat() : [];
      setError([result.error.message, ...fields].join(' '));
    }
  }

  /** A move's button: asked first when it cancels or refunds, then checked and sent with the form's fields. */
  async function moveTo(to: OrderStatus) {
    if (
      (to === 'cancelled' || to === 'refunded') &&
      !(await confirm({ title: `Mark order ${order.reference} as ${to}?`, confirmLabel: `Mark as ${to}`, cancelLabel: 'Leave it' }))
    )
      return;
    move.setValue('to', to);
    await move.handleSubmit((values: MoveOrder) => run(() => moveOrder(order.id, values), placing(MOVE_FIELDS, move.setError)))();
  }

  return (
    <li className="orders__order" aria-labelledby={`print-${order.id}`}>
      <h3 id={`print-${order.id}`} className="orders__title">{`Order ${order.reference}`}</h3>
      <p className="orders__status">
        <strong>{StatusText[order.status]}</strong>
        {order.customer ? ` · ${order.customer.name} (${order.customer.username})` : ''}
        {order.paidAt ? ` · paid ${when(order.paidAt)}` : ''}
      </p>
      <p>{order.lines.map((l) => `${l.quantity} x ${l.name}${l.colour ? ` in ${l.colour}` : ''}`).join(', ')}</p>
      {proofNotice ? (
        <p className={order.proof?.status === 'failed' ? 'orders__proof-failed' : 'orders__proof-notice'} role="status">
          {order.proof?.status === 'failed'
            ? `Proof render failed after ${order.proof.attempts} attempts: ${order.proof.error ?? ''}`
            : proofNotice}
        </p>
      ) : null}
      {order.proof && order.proof.version > 0 ? (
        <figure className="orders__proof">
          <img src={urls.png} alt={`Print proof of order ${order.reference}`} className="orders__proof-image" />
          <figcaption>
            <a href={urls.pdf} target="_blank" rel="noopener">{`Open proof PDF (version ${order.proof.version})`}</a>
          </figcaption>
        </figure>
      ) : null}
      <p className="orders__links">
        <a href={urls.packingSlip} target="_blank" rel="noopener">
          Packing slip (PDF)
        </a>
      </p>
      {order.shipment ? (
        <p className="orders__tracking">{`Courier: ${order.shipment.courier} · Tracking number: ${order.shipment.trackingNumber}`}</p>
      ) : null}
      {error ? <FormAlert>{error}</FormAlert> : null}
      {order.cards.length > 0 ? (
        <table className="orders__card-table">
          <caption>Cards</caption>
          <thead>
            <tr>
              <th scope="col">Serial</th>
              <th scope="col">Card</th>
              <th scope="col">NFC UID</th>
            </tr>
          </thead>
          <tbody>
            {order.cards.map((card) => (
              <tr key={card.serial}>
                <td>{card.serial}</td>
                <td>{`${card.material} ${card.colour}${card.disabled ? ' (disabled)' : ''}`}</td>
                <td>
                  {order.status === 'printing' ? (
                    <UidForm
                      card={card}
                      busy={busy}
                      onSave={(nfcUid, place) => run(() => recordCard(order.id, card.serial, nfcUid), place)}
                    />
                  ) : (
                    (card.nfcUid ?? '—')
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {['paid', 'proof-ready', 'changes-requested'].includes(order.status) ? (
        <Button type="button" variant="secondary" disabled={busy} onClick={() => void run(() => rerenderProof(order.id))}>
          Render proof again
        </Button>
      ) : null}
      {moves.length > 0 ? (
        <form
          className="orders__move"
          onSubmit={(e) => {
            e.preventDefault();
          }}
        >
          <label htmlFor={`note-${order.id}`}>Note (optional)</label>
          <input
            id={`note-${order.id}`}
            maxLength={1000}
            {...described(`note-${order.id}`, moveErrors.note?.message)}
            {...move.register('note')}
          />
          <InputError id={`note-${order.id}`} message={moveErrors.note?.message} />
          {moves.includes('shipped') ? (
            <>
              <label htmlFor={`courier-${order.id}`}>Courier</label>
              <input
                id={`courier-${order.id}`}
                {...described(`courier-${order.id}`, moveErrors.courier?.message)}
                {...move.register('courier')}
              />
              <InputError id={`courier-${order.id}`} message={moveErrors.courier?.message} />
              <label htmlFor={`tracking-${order.id}`}>Tracking number</label>
              <input
                id={`tracking-${order.id}`}
                {...described(`tracking-${order.id}`, moveErrors.trackingNumber?.message)}
                {...move.register('trackingNumber')}
              />
              <InputError id={`tracking-${order.id}`} message={moveErrors.trackingNumber?.message} />
            </>
          ) : null}
          <div className="orders__actions">
            {moves.map((to) => (
              <Button
                key={to}
                type="button"
                variant={to === 'cancelled' || to === 'refunded' ? 'secondary' : 'primary'}
                disabled={busy}
                onClick={() => void moveTo(to)}
              >
                {MoveText[to] ?? to}
              </Button>
            ))}
          </div>
        </form>
      ) : null}
      <StatusHistory history={order.history} />
    </li>
  );
}

/** A card's NFC UID while printing: react-hook-form over the contract's RecordCardSchema (4, 7 or 10 bytes in hex). */
function UidForm({ card, busy, onSave }: { card: Card; busy: boolean; onSave: (nfcUid: string, place: PlaceErrors) => Promise<void> }) {
  const form = useContractForm(RecordCardSchema, { nfcUid: card.nfcUid ?? '' });
  const id = `uid-${card.serial}`;
  const message = form.formState.errors.nfcUid?.message;
  return (
    <form
      className="orders__uid-form"
      noValidate
      onSubmit={(e) => void form.handleSubmit(({ nfcUid }) => onSave(nfcUid, placing(['nfcUid'], form.setError)))(e)}
    >
      <label className="ui-visually-hidden" htmlFor={id}>{`NFC UID of card ${card.serial}`}</label>
      <input id={id} placeholder="04:A2:3B:1C:5D:80:00" {...described(id, message)} {...form.register('nfcUid')} />
      <Button type="submit" variant="secondary" disabled={busy}>
        Save
      </Button>
      <InputError id={id} message={message} />
    </form>
  );
}

const MoveText: Partial<Record<OrderStatus, string>> = {
  printing: 'Start printing',
  'nfc-encoded': 'NFC encoded',
  shipped: 'Mark shipped',
  delivered: 'Mark delivered',
  cancelled: 'Cancel order',
  refunded: 'Mark refunded',
};

/** The chunk's entry: the section's server state goes through TanStack Query (`query-client.tsx`). */
export default function PrintConsoleWithQueries() {
  return (
    <QueryProvider>
      <PrintConsole />
    </QueryProvider>
  );
}

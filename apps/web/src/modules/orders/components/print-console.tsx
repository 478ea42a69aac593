import { movesFrom, OrderStatuses, type OrderStatus, type PrintOrder, type PrintQueue } from '@digicard/contracts';
import { Button, confirm, Container, FormAlert } from '@digicard/ui';
import { useState } from 'react';
import { useOwnerPages } from '../../api/use-owner-pages';
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

type Result = { ok: true; data: PrintOrder } | { ok: false; error: { message: string; fieldErrors?: Record<string, string[]> } };

function PrintOrderCard({ order, onChange }: { order: PrintOrder; onChange: (o: PrintOrder) => void }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [note, setNote] = useState('');
  const [courier, setCourier] = useState('');
  const [tracking, setTracking] = useState('');
  const [uids, setUids] = useState<Record<string, string>>({});
  const moves = movesFrom(order.status, 'print').filter((to) => OrderStatuses.includes(to));
  const urls = printFileUrls(order.id, order.proof?.version ?? 0);
  const proofNotice = proofText(order.proof);

  async function run(action: () => Promise<Result>) {
    setBusy(true);
    setError(null);
    const result = await action();
    setBusy(false);
    if (result.ok) {
      onChange(result.data);
      setNote('');
    } else {
      const fields = result.error.fieldErrors ? Object.values(result.error.fieldErrors).flat() : [];
      setError([result.error.message, ...fields].join(' '));
    }
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
                    <form
                      className="orders__uid-form"
                      onSubmit={(e) => {
                        e.preventDefault();
                        void run(() => recordCard(order.id, card.serial, uids[card.serial] ?? ''));
                      }}
                    >
                      <label className="ui-visually-hidden" htmlFor={`uid-${card.serial}`}>{`NFC UID of card ${card.serial}`}</label>
                      <input
                        id={`uid-${card.serial}`}
                        value={uids[card.serial] ?? card.nfcUid ?? ''}
                        placeholder="04:A2:3B:1C:5D:80:00"
                        onChange={(e) => setUids({ ...uids, [card.serial]: e.target.value })}
                      />
                      <Button type="submit" variant="secondary" disabled={busy}>
                        Save
                      </Button>
                    </form>
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
          <input id={`note-${order.id}`} value={note} maxLength={1000} onChange={(e) => setNote(e.target.value)} />
          {moves.includes('shipped') ? (
            <>
              <label htmlFor={`courier-${order.id}`}>Courier</label>
              <input id={`courier-${order.id}`} value={courier} onChange={(e) => setCourier(e.target.value)} />
              <label htmlFor={`tracking-${order.id}`}>Tracking number</label>
              <input id={`tracking-${order.id}`} value={tracking} onChange={(e) => setTracking(e.target.value)} />
            </>
          ) : null}
          <div className="orders__actions">
            {moves.map((to) => (
              <Button
                key={to}
                type="button"
                variant={to === 'cancelled' || to === 'refunded' ? 'secondary' : 'primary'}
                disabled={busy}
                onClick={() => {
                  const asked =
                    to === 'cancelled' || to === 'refunded'
                      ? confirm({
                          title: `Mark order ${order.reference} as ${to}?`,
                          confirmLabel: `Mark as ${to}`,
                          cancelLabel: 'Leave it',
                        })
                      : Promise.resolve(true);
                  void asked.then((yes) => {
                    if (!yes) return;
                    void run(() =>
                      moveOrder(order.id, {
                        to,
                        ...(note.trim() ? { note } : {}),
                        ...(to === 'shipped' ? { courier, trackingNumber: tracking } : {}),
                      }),
                    );
                  });
                }}
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

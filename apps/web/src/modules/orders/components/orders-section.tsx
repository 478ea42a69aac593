import { CardMessages, formatRand, RequestChangesSchema, type Card, type OrderDetail, type Rep } from '@digicard/contracts';
import { useQuery } from '@tanstack/react-query';
import { Button, FormAlert, type ConfirmOptions } from '@digicard/ui';
import { useState } from 'react';
import type { UseFormSetError } from 'react-hook-form';
import type { HttpResult } from '../../api/http';
import { useAction } from '../../api/use-action';
import { useOwnerPages } from '../../api/use-owner-pages';
import { useContractForm } from '../../forms/hooks/use-contract-form';
import { applyApiError } from '../../forms/utils/apply-api-error';
import { LoadFailed } from '../../site/components/load-failed';
import { LoadMore } from '../../site/components/load-more';
import { useSession } from '../../session/hooks/use-session';
import { fetchWholeTeam } from '../../teams/api/teams';
import { TeamQueries } from '../../teams/hooks/use-team';
import {
  approveProof,
  assignCard,
  cancelOrder,
  fetchOrderDetails,
  ownProofUrls,
  requestProofChanges,
  setCardDisabled,
} from '../api/orders';
import { payForOrder } from './unpaid-orders';
import { proofText, StatusText } from './order-labels';
import { StatusHistory } from './status-history';
import '../orders.css';

/**
 * Orders: each order with its proof (preview and PDF), Approve / Request changes (with a note), the status history,
 * courier and tracking, and its cards (a lost one can be disabled). One still awaiting payment (a special bought with
 * the sign-up, or a checkout left at PayFast) can be paid or cancelled here.
 */
export function OrdersSection() {
  const { state, retry, update, hasMore, more, loadMore } = useOwnerPages<'orders', OrderDetail>(
    ['order-details'],
    'orders',
    fetchOrderDetails,
    'Your orders could not be loaded.',
  );
  const team = useTeam();
  if (state.status === 'loading') return <p role="status">Loading...</p>;
  if (state.status === 'failed') return <LoadFailed message={state.message} retry={retry} />;
  const orders = state.value.orders;
  if (orders.length === 0) return <p>No orders yet. Cards you buy appear here with their print proof.</p>;
  const changed = (order: OrderDetail) =>
    update((shown) => ({ ...shown, orders: shown.orders.map((o) => (o.id === order.id ? order : o)) }));
  return (
    <>
      <ul className="orders">
        {orders.map((order) => (
          <OrderCard key={order.id} order={order} onChange={changed} team={team} />
        ))}
      </ul>
      <LoadMore list="orders" hasMore={hasMore} more={more} onLoadMore={() => void loadMore()} />
    </>
  );
}

/** Whom a team leader can point a card at: themselves and their reps (null for everyone else, or if unknown). */
type Team = { self: { accountId: string; label: string }; reps: Rep[] } | null;

/** Every rep of a leader, page after page (a query under the team's key: a change of the team reads it again). */
function useTeam(): Team {
  const { user } = useSession();
  const isLeader = user?.role === 'teamLeader';
  const { data: reps } = useQuery({
    queryKey: TeamQueries.everyRep,
    queryFn: async (): Promise<Rep[]> => {
      const all = await fetchWholeTeam();
      if (!all) throw new Error('The team could not be read.');
      return all;
    },
    enabled: isLeader,
  });
  if (!user || !isLeader || !reps) return null;
  return { self: { accountId: user.id, label: `You (${user.username})` }, reps };
}

function OrderCard({ order, onChange, team }: { order: OrderDetail; onChange: (o: OrderDetail) => void; team: Team }) {
  // One action of the card at a time (its buttons are disabled meanwhile); a refusal is the card's alert.
  const action = useAction();
  const busy = action.pending;
  const [asking, setAsking] = useState(false);
  // "Request changes": react-hook-form over the contract's RequestChangesSchema.
  const changes = useContractForm(RequestChangesSchema, { note: '' });
  const noteError = changes.formState.errors.note?.message;
  const proofNotice = proofText(order.proof);
  const canDecide = order.status === 'proof-ready' && order.proof?.status === 'ready';
  const unpaid = order.status === 'awaiting-payment';
  const urls = order.proof && order.proof.version > 0 ? ownProofUrls(order.id, order.proof.version) : null;

  /** An action on the order (asked first when `confirm` is given); a refusal is the card's alert, or (the note's) on the note. */
  function run(
    send: () => Promise<HttpResult<OrderDetail>>,
    { confirm = null, setFieldError }: { confirm?: ConfirmOptions | null; setFieldError?: UseFormSetError<{ note: string }> } = {},
  ) {
    return action.run({
      confirm,
      send,
      failed: (error) =>
        setFieldError ? applyApiError(error, ['note'], setFieldError, error.message) : (error.fieldErrors?.['note']?.[0] ?? error.message),
      done: (changed) => {
        onChange(changed);
        setAsking(false);
        changes.reset();
        return '';
      },
    });
  }

  return (
    <li className="orders__order" aria-labelledby={`order-${order.id}`}>
      <h3 id={`order-${order.id}`} className="orders__title">
        {`Order ${order.reference}`}
      </h3>
      <p className="orders__status">
        <strong>{StatusText[order.status]}</strong>
        {` · ${order.lines.map((l) => `${l.quantity} x ${l.name}${l.colour ? ` in ${l.colour}` : ''}`).join(', ')} · ${formatRand(order.totalCents)}`}
      </p>
      {proofNotice ? (
        <p className="orders__proof-notice" role="status">
          {proofNotice}
        </p>
      ) : null}
      {urls ? (
        <figure className="orders__proof">
          <img src={urls.png} alt={`Print proof of order ${order.reference}: front and back of the card`} className="orders__proof-image" />
          <figcaption>
            <a href={urls.pdf} target="_blank" rel="noopener">
              Open the print proof (PDF)
            </a>
          </figcaption>
        </figure>
      ) : null}
      {action.failure ? <FormAlert>{action.failure}</FormAlert> : null}
      {unpaid ? (
        <div className="orders__actions">
          <Button
            type="button"
            disabled={busy}
            onClick={() => void action.run({ send: () => payForOrder(order.id), failed: (error) => error.message, done: () => '' })}
          >
            Pay with PayFast
          </Button>
          <Button
            type="button"
            variant="secondary"
            disabled={busy}
            onClick={() =>
              void run(() => cancelOrder(order.id), {
                confirm: {
                  title: `Cancel order ${order.reference}? Nothing has been paid, so nothing is charged.`,
                  confirmLabel: 'Cancel order',
                  cancelLabel: 'Keep order',
                },
              })
            }
          >
            Cancel order
          </Button>
        </div>
      ) : null}
      {canDecide ? (
        <div className="orders__actions">
          <Button type="button" disabled={busy} onClick={() => void run(() => approveProof(order.id))}>
            Approve proof
          </Button>
          <Button type="button" variant="secondary" disabled={busy} onClick={() => setAsking((v) => !v)} aria-expanded={asking}>
            Request changes
          </Button>
        </div>
      ) : null}
      {canDecide && asking ? (
        // Not a <form>: this section sits inside the profile editor's form, and forms do not nest.
        <div className="orders__changes" role="group" aria-label="Request changes">
          <label htmlFor={`note-${order.id}`}>What should change?</label>
          <textarea
            id={`note-${order.id}`}
            maxLength={1000}
            rows={3}
            aria-invalid={noteError ? true : undefined}
            aria-describedby={noteError ? `note-${order.id}-error` : undefined}
            {...changes.register('note')}
          />
          {noteError ? (
            <p id={`note-${order.id}-error`} className="ui-field__error">
              {noteError}
            </p>
          ) : null}
          <Button
            type="button"
            disabled={busy}
            onClick={() =>
              void changes.handleSubmit(({ note }) => run(() => requestProofChanges(order.id, note), { setFieldError: changes.setError }))()
            }
          >
            Send changes
          </Button>
        </div>
      ) : null}
      {order.shipment ? (
        <p className="orders__tracking">{`Courier: ${order.shipment.courier} · Tracking number: ${order.shipment.trackingNumber}`}</p>
      ) : null}
      {order.cards.length > 0 ? (
        <details className="orders__cards">
          <summary>{`Cards (${order.cards.length})`}</summary>
          <ul>
            {order.cards.map((card) => (
              <li key={card.serial} className="orders__card">
                <span>{`${card.material} ${card.colour} · No. ${card.serial}${card.disabled ? ' · disabled' : ''}`}</span>
                <Button
                  type="button"
                  variant="secondary"
                  disabled={busy}
                  onClick={() =>
                    void action.run({
                      confirm: card.disabled
                        ? null
                        : {
                            title: `Disable card ${card.serial}? Tapping or scanning it will no longer open your profile.`,
                            confirmLabel: 'Disable card',
                          },
                      send: () => setCardDisabled(card.serial, !card.disabled),
                      failed: (error) => error.message,
                      done: (changed) => {
                        onChange({ ...order, cards: order.cards.map((c) => (c.serial === changed.serial ? changed : c)) });
                        return '';
                      },
                    })
                  }
                >
                  {card.disabled ? `Enable card ${card.serial}` : `Disable card ${card.serial}`}
                </Button>
                {team && team.reps.length > 0 ? (
                  <CardAssignee
                    card={card}
                    team={team}
                    onAssigned={(changed) =>
                      onChange({ ...order, cards: order.cards.map((c) => (c.serial === changed.serial ? changed : c)) })
                    }
                  />
                ) : null}
              </li>
            ))}
          </ul>
        </details>
      ) : null}
      <StatusHistory history={order.history} />
    </li>
  );
}

/**
 * A team leader hands a printed card to a rep (no reprint): its NFC chip and QR code then open the rep's page. The
 * server checks the card is the team's and the rep is the leader's.
 */
function CardAssignee({ card, team, onAssigned }: { card: Card; team: NonNullable<Team>; onAssigned: (card: Card) => void }) {
  const current = card.assignedTo ?? team.self.accountId;
  const [chosen, setChosen] = useState(current);
  const action = useAction();
  const busy = action.pending;
  const id = `assignee-${card.serial}`;
  const nameOf = (accountId: string) => {
    const rep = team.reps.find((r) => r.accountId === accountId);
    return rep ? `${rep.firstName} ${rep.lastName} (${rep.username})` : team.self.label;
  };
  return (
    <div className="orders__assignee">
      <p className="orders__points-to">{`Opens the page of: ${nameOf(current)}`}</p>
      <label htmlFor={id}>{`Give card ${card.serial} to`}</label>
      <select id={id} value={chosen} onChange={(e) => setChosen(e.target.value)} disabled={busy}>
        <option value={team.self.accountId}>{team.self.label}</option>
        {team.reps.map((rep) => (
          <option key={rep.accountId} value={rep.accountId}>{`${rep.firstName} ${rep.lastName} (${rep.username})`}</option>
        ))}
      </select>
      <Button
        type="button"
        variant="secondary"
        disabled={busy || chosen === current}
        onClick={() =>
          void action.run({
            send: () => assignCard(card.serial, chosen),
            failed: (error) => error.fieldErrors?.['accountId']?.[0] ?? error.message,
            done: (assigned) => {
              onAssigned(assigned);
              return CardMessages.assigned;
            },
          })
        }
      >
        Reassign card
      </Button>
      {action.failure ? (
        <p role="alert" className="ui-form-alert">
          {action.failure}
        </p>
      ) : action.message ? (
        <p role="status" className="orders__assigned">
          {action.message}
        </p>
      ) : null}
    </div>
  );
}

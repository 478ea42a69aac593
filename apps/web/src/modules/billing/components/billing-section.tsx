import { SA_TIME_ZONE } from '@digicard/domain';
import {
  formatRand,
  PaidTiers,
  WebRoutes,
  type Billing,
  type Membership,
  type PaidTier,
  type PaymentHistory,
  type PaymentRecord,
  type Subscription,
} from '@digicard/contracts';
import { Button, confirm, FormAlert } from '@digicard/ui';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { usePlans } from '../../packages/hooks/use-plans';
import { MEMBERSHIP_TIERS, tierPrice } from '../../packages/tiers';
import { useOwnerPages } from '../../api/use-owner-pages';
import { LoadFailed } from '../../site/components/load-failed';
import { LoadMore } from '../../site/components/load-more';
import { cancelMembership, changeMembership, fetchPayments, goToPayFast, startMembership } from '../api/billing';
import { useBilling } from '../hooks/use-billing';

const day = new Intl.DateTimeFormat('en-ZA', { dateStyle: 'long', timeZone: SA_TIME_ZONE });
const when = (iso: string | null) => (iso ? day.format(new Date(iso)) : '');

export const CANCEL_QUESTION = 'Cancel your membership? You keep it until the end of the month you have paid for.';

/** What the subscription means for the owner now, in one sentence. */
export function subscriptionStatus(s: Subscription): string {
  switch (s.status) {
    case 'pending':
      return `Waiting for PayFast to confirm your first ${s.tier} payment.`;
    case 'active':
      return `${s.tier}, ${formatRand(s.monthlyPriceCents)} per month. Paid until ${when(s.paidUntil)}; next payment on ${when(s.nextBillingDate)}.`;
    case 'cancelling':
      return `Cancelled: ${s.tier} stays until ${when(s.paidUntil)}, then your profile returns to DigiShare. What it shows above DigiShare is hidden then, never deleted.`;
    case 'past-due':
      return `Your last ${s.tier} payment did not go through. Please check the card you pay with at PayFast, which will try again; your ${s.tier} features stay until ${when(s.graceUntil)}.`;
    case 'ended':
      return `Your ${s.tier} membership has ended.`;
  }
}

/**
 * A team rep's Billing: the tier is the team's, chosen and paid by the team leader, so there is nothing to buy or
 * cancel here (payments refuses a rep's subscription too).
 */
export function TeamBilling({ membership, team }: { membership: string; team: { businessName: string; username: string } }) {
  return (
    <>
      <p className="pe-billing__tier">
        Your membership: <strong>{membership}</strong>
      </p>
      <p className="pe-note">{`Your membership comes with your team: ${team.businessName || team.username} (your team leader, ${team.username}) chooses and pays for it.`}</p>
    </>
  );
}

/** How often Billing asks again while PayFast's confirmation of a first payment is awaited. */

/**
 * Billing: the tier and what is next (billing date, or the end of a cancelled month), the upgrade buttons that go
 * to PayFast, Cancel, and every payment in rand. While a first payment awaits PayFast's notification (the owner is
 * just back from PayFast) it is read again every few seconds, and the new tier shows when it arrives; the editor is
 * told (`onMembershipChanged`), so its other sections agree without a reload.
 */
export function BillingSection({ onMembershipChanged }: { onMembershipChanged?: (membership: Membership) => void }) {
  const { state, retry, replace } = useBilling();
  const plans = usePlans();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const waited = useRef(false);
  const loaded = state.status === 'loaded' ? state.value : null;
  useEffect(() => {
    if (!loaded) return;
    // Read again by the query while pending (useBilling); once it is not, the editor hears of the tier.
    if (loaded.subscription?.status === 'pending') waited.current = true;
    else if (waited.current) {
      waited.current = false;
      onMembershipChanged?.(loaded.membership);
    }
  }, [loaded, onMembershipChanged]);

  async function upgrade(tier: PaidTier) {
    setBusy(true);
    setError(null);
    const result = await startMembership(tier);
    if (result.ok) return goToPayFast(result.data.redirectUrl);
    setBusy(false);
    setError(result.error.message);
  }

  async function change(tier: PaidTier) {
    setBusy(true);
    setError(null);
    const result = await changeMembership(tier);
    setBusy(false);
    if (result.ok) replace(result.data);
    else setError(result.error.message);
  }

  async function cancel() {
    if (!(await confirm({ title: CANCEL_QUESTION, confirmLabel: 'Cancel membership', cancelLabel: 'Keep membership' }))) return;
    setBusy(true);
    setError(null);
    const result = await cancelMembership();
    setBusy(false);
    if (result.ok) replace(result.data);
    else setError(result.error.message);
  }

  if (state.status === 'loading') return <p role="status">Loading...</p>;
  if (state.status === 'failed') {
    return <LoadFailed message={state.message} retry={retry} />;
  }
  const billing: Billing = state.value;
  const subscription = billing.subscription;
  const canStart = !subscription || subscription.status === 'ended';
  const canCancel = subscription?.status === 'active' || subscription?.status === 'past-due';
  // An active subscription can switch to the other paid tier (or back, before the change takes effect).
  const switchTo =
    subscription?.status === 'active' ? PaidTiers.find((t) => t !== (subscription.nextTier ?? subscription.tier)) : undefined;
  return (
    <>
      <p className="pe-billing__tier">
        Your membership: <strong>{billing.membership}</strong>
      </p>
      {subscription ? <p className="pe-note">{subscriptionStatus(subscription)}</p> : null}
      {subscription?.nextTier ? (
        <p className="pe-note" role="status">{`From ${when(subscription.nextBillingDate)} your membership is ${subscription.nextTier}.`}</p>
      ) : null}
      {error ? <FormAlert>{error}</FormAlert> : null}
      {switchTo && subscription ? (
        <p className="pe-actions">
          <Button disabled={busy} onClick={() => void change(switchTo)}>
            {`Switch to ${switchTo} (${tierPrice(switchTo, plans) ?? ''}) from ${when(subscription.nextBillingDate)}`}
          </Button>
        </p>
      ) : null}
      {canStart ? (
        <ul className="pe-plans">
          {PaidTiers.map((tier) => {
            const shown = MEMBERSHIP_TIERS.find((t) => t.name === tier);
            return (
              <li key={tier} className="pe-plan">
                <h3 className="pe-plan__name">{tier}</h3>
                <p className="pe-plan__price">{tierPrice(tier, plans)}</p>
                <p className="pe-plan__adds">{shown?.adds.join(', ')}</p>
                <Button disabled={busy || billing.membership === tier} onClick={() => void upgrade(tier)}>
                  {`Choose ${tier}`}
                </Button>
              </li>
            );
          })}
          <li className="pe-plan">
            <h3 className="pe-plan__name">DigiPlatinum</h3>
            <p className="pe-plan__price">Price on request</p>
            <p className="pe-plan__adds">For teams: group use and analytics.</p>
            <Link className="button-link button-link--secondary" to={`${WebRoutes.pricing}#quote`}>
              Ask for a quote
            </Link>
          </li>
        </ul>
      ) : null}
      {canCancel ? (
        <p className="pe-actions">
          <Button variant="secondary" disabled={busy} onClick={() => void cancel()}>
            Cancel membership
          </Button>
        </p>
      ) : null}
      {/* Read again (from its first page) when the tier or the paid month changes: a payment just confirmed shows. */}
      <PaymentHistoryList key={`${billing.membership}:${billing.subscription?.status ?? ''}:${billing.subscription?.paidUntil ?? ''}`} />
    </>
  );
}

export const PAYMENTS_FAILED_MESSAGE = 'Your payments could not be loaded.';

/** Every payment of the owner (memberships and orders), newest first, a page at a time. */
function PaymentHistoryList() {
  const { state, retry, hasMore, more, loadMore } = useOwnerPages<'payments', PaymentRecord, PaymentHistory>(
    ['billing', 'payments'],
    'payments',
    fetchPayments,
    PAYMENTS_FAILED_MESSAGE,
  );
  return (
    <>
      <h3 className="pe-subtitle">Payments</h3>
      {state.status === 'loading' ? (
        <p role="status">Loading...</p>
      ) : state.status === 'failed' ? (
        <LoadFailed message={state.message} retry={retry} />
      ) : state.value.payments.length === 0 ? (
        <p className="pe-list__empty">No payments yet.</p>
      ) : (
        <ul className="pe-leads">
          {state.value.payments.map((payment) => (
            <li key={payment.id} className="pe-lead">
              <dl className="pe-lead__facts">
                <div>
                  <dt>Date</dt>
                  <dd>{when(payment.at)}</dd>
                </div>
                <div>
                  <dt>For</dt>
                  <dd>{payment.description}</dd>
                </div>
                <div>
                  <dt>Amount</dt>
                  <dd>{formatRand(payment.amountCents)}</dd>
                </div>
                <div>
                  <dt>Status</dt>
                  <dd>{payment.status === 'complete' ? 'Paid' : 'Failed'}</dd>
                </div>
              </dl>
            </li>
          ))}
        </ul>
      )}
      <LoadMore list="payments" hasMore={hasMore} more={more} onLoadMore={() => void loadMore()} />
    </>
  );
}

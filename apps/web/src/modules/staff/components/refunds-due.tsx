import { formatRand } from '@digicard/contracts';
import { when } from '../../orders/components/order-labels';
import { LoadFailed } from '../../site/components/load-failed';
import { LoadMore } from '../../site/components/load-more';
import { useRefundsDue } from '../hooks/use-staff';

/**
 * Support's list of payments to pay back by hand: a membership checkout given up and paid anyway, or one checkout
 * paid twice (two PayFast subscriptions). The reason says what to do at PayFast. Newest first, a page at a time.
 */
export function RefundsDue() {
  const { state, retry, hasMore, more, loadMore } = useRefundsDue();
  return (
    <section className="staff-console__refunds" aria-labelledby="staff-refunds-title">
      <h2 id="staff-refunds-title">Payments to refund</h2>
      {state.status === 'loading' ? (
        <p>Loading...</p>
      ) : state.status === 'failed' ? (
        <LoadFailed message={state.message} retry={retry} />
      ) : state.value.payments.length === 0 ? (
        <p>No payments to refund.</p>
      ) : (
        <table className="staff-console__audit">
          <thead>
            <tr>
              <th scope="col">Paid</th>
              <th scope="col">For</th>
              <th scope="col">Amount</th>
              <th scope="col">PayFast payment</th>
              <th scope="col">Account</th>
              <th scope="col">Why</th>
            </tr>
          </thead>
          <tbody>
            {state.value.payments.map((payment) => (
              <tr key={payment.id}>
                <td>{when(payment.at)}</td>
                <td>{payment.description}</td>
                <td>{formatRand(payment.amountCents)}</td>
                <td>{payment.pfPaymentId}</td>
                <td>{payment.accountId}</td>
                <td>{payment.reason}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <LoadMore list="payments to refund" hasMore={hasMore} more={more} onLoadMore={() => void loadMore()} />
    </section>
  );
}

import type { PrintOrder } from '@digicard/contracts';
import { Button, FormAlert, Notice, VisuallyHidden } from '@digicard/ui';
import { useState } from 'react';
import { LoadFailed } from '../../site/components/load-failed';
import { LoadMore } from '../../site/components/load-more';
import { StatusText, when } from '../../orders/components/order-labels';
import { useFailedProofs, useRenderProofAgain } from '../hooks/use-staff';

/**
 * Support's view of the print proofs that failed to render (after their retries): whose order, what failed, and
 * "Render again" (the print team's action; the proof then shows rendering and leaves this list).
 */
export function FailedProofs() {
  const { state, retry, hasMore, more, loadMore } = useFailedProofs();
  const rendering = useRenderProofAgain();
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function again(order: PrintOrder) {
    setBusy(true);
    setDone(null);
    const result = await rendering.mutateAsync(order.id);
    setBusy(false);
    if (!result.ok) {
      setError(result.error.message);
      return;
    }
    setError(null);
    setDone(`Order ${order.reference}: the proof is rendering again.`);
  }

  return (
    <section className="staff-console__failed" aria-labelledby="staff-failed-title">
      <h2 id="staff-failed-title">Failed print proofs</h2>
      <FormAlert>{error}</FormAlert>
      <div role="status">{done ? <Notice tone="success">{done}</Notice> : null}</div>
      {state.status === 'loading' ? (
        <p>Loading...</p>
      ) : state.status === 'failed' ? (
        <LoadFailed message={state.message} retry={retry} />
      ) : state.value.orders.length === 0 ? (
        <p>No failed proofs.</p>
      ) : (
        <table className="staff-console__audit">
          <thead>
            <tr>
              <th scope="col">Order</th>
              <th scope="col">Buyer</th>
              <th scope="col">Status</th>
              <th scope="col">What failed</th>
              <th scope="col">Paid</th>
              <th scope="col">
                <VisuallyHidden>Action</VisuallyHidden>
              </th>
            </tr>
          </thead>
          <tbody>
            {state.value.orders.map((order) => (
              <tr key={order.id}>
                <td>{order.reference}</td>
                <td>{order.customer ? `${order.customer.name} (${order.customer.username})` : '(not known yet)'}</td>
                <td>{StatusText[order.status]}</td>
                <td>{`${order.proof?.attempts ?? 0} attempts: ${order.proof?.error ?? ''}`}</td>
                <td>{order.paidAt ? when(order.paidAt) : ''}</td>
                <td>
                  <Button
                    disabled={busy}
                    onClick={() => void again(order)}
                    aria-label={`Render the proof of order ${order.reference} again`}
                  >
                    Render again
                  </Button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <LoadMore list="failed proofs" hasMore={hasMore} more={more} onLoadMore={() => void loadMore()} />
    </section>
  );
}

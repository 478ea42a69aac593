import { formatRand, type Order } from '@digicard/contracts';
import { Button, FormAlert, notice } from '@digicard/ui';
import type { HttpResult } from '../../api/http';
import { useAction } from '../../api/use-action';
import { goToPayFast } from '../../billing/api/billing';
import { useOrders } from '../../billing/hooks/use-billing';
import { useSession } from '../../session/hooks/use-session';
import { payOrder } from '../api/orders';

/** The alert before the browser leaves for PayFast (the special offer's, as on /registration). */
export const PAY_FOR_CARDS_ALERT = 'You will now go to PayFast to pay for your cards.';

const linesOf = (order: Order): string => order.lines.map((l) => (l.quantity > 1 ? `${l.quantity} x ${l.name}` : l.name)).join(', ');

/**
 * Pays an order that awaits payment: PayFast's signed request from the server (a special's includes its year of
 * DigiGold), an alert, then PayFast. Nothing of the basket is removed on the way back: the order is on the server.
 * As a `useAction` send: answers only a refusal; once the browser is on its way to PayFast it never answers, so the
 * button that asked stays busy until the page is gone.
 */
export async function payForOrder(orderId: string): Promise<HttpResult<never>> {
  const result = await payOrder(orderId);
  if (!result.ok) return result;
  await notice({ title: PAY_FOR_CARDS_ALERT });
  goToPayFast(result.data.redirectUrl, orderId, []);
  return new Promise<never>(() => undefined);
}

/**
 * After the verification link signed a new account in: the orders it placed with its sign-up (the special offer),
 * still to be paid, each with "Pay for your cards". Shows nothing while loading, when there are none, or when the
 * orders cannot be read (the dashboard's Orders section offers the same).
 */
export function UnpaidOrders() {
  const { user } = useSession();
  // Read once the session knows the account the link signed in: that sign-in empties the query cache
  // (query-client.tsx), which would drop a read begun before it.
  return user ? <AwaitingPayment key={user.id} /> : null;
}

function AwaitingPayment() {
  const { state } = useOrders();
  const action = useAction();
  const orders = state.status === 'loaded' ? state.value.orders.filter((o) => o.status === 'awaiting-payment') : [];
  if (orders.length === 0) return null;

  const pay = (orderId: string) => action.run({ send: () => payForOrder(orderId), failed: (error) => error.message, done: () => '' });

  return (
    <section className="unpaid-orders" aria-labelledby="unpaid-orders-title">
      <h2 id="unpaid-orders-title" className="item-page__subtitle">
        {orders.length === 1 ? 'Your order awaits payment' : 'Your orders await payment'}
      </h2>
      <ul className="cart-lines">
        {orders.map((order) => (
          <li key={order.id} className="cart-line">
            <span className="cart-line__name">{`Order ${order.reference}: ${linesOf(order)}`}</span>{' '}
            <span className="cart-line__price">{formatRand(order.totalCents)}</span>{' '}
            <Button disabled={action.pending} onClick={() => void pay(order.id)}>
              {action.pending ? 'Taking you to PayFast...' : 'Pay for your cards'}
            </Button>
          </li>
        ))}
      </ul>
      {action.failure ? <FormAlert>{action.failure}</FormAlert> : null}
    </section>
  );
}

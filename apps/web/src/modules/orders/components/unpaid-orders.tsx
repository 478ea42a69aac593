import { formatRand, type Order } from '@digicard/contracts';
import { Button, FormAlert, notice } from '@digicard/ui';
import { useEffect, useState } from 'react';
import { fetchOrders, goToPayFast } from '../../billing/api/billing';
import { payOrder } from '../api/orders';

/** The alert before the browser leaves for PayFast (the special offer's, as on /registration). */
export const PAY_FOR_CARDS_ALERT = 'You will now go to PayFast to pay for your cards.';

const linesOf = (order: Order): string => order.lines.map((l) => (l.quantity > 1 ? `${l.quantity} x ${l.name}` : l.name)).join(', ');

/**
 * Pays an order that awaits payment: PayFast's signed request from the server (a special's includes its year of
 * DigiGold), an alert, then PayFast. Nothing of the basket is removed on the way back: the order is on the server.
 */
export async function payForOrder(orderId: string): Promise<string | null> {
  const result = await payOrder(orderId);
  if (!result.ok) return result.error.message;
  await notice({ title: PAY_FOR_CARDS_ALERT });
  goToPayFast(result.data.redirectUrl, orderId, []);
  return null;
}

/**
 * After the verification link signed a new account in: the orders it placed with its sign-up (the special offer),
 * still to be paid, each with "Pay for your cards". Shows nothing while loading, when there are none, or when the
 * orders cannot be read (the dashboard's Orders section offers the same).
 */
export function UnpaidOrders() {
  const [orders, setOrders] = useState<Order[]>([]);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let active = true;
    void fetchOrders().then((result) => {
      if (active && result.ok) setOrders(result.data.orders.filter((o) => o.status === 'awaiting-payment'));
    });
    return () => {
      active = false;
    };
  }, []);

  if (orders.length === 0) return null;

  async function pay(orderId: string) {
    setBusy(true);
    setError(null);
    const failed = await payForOrder(orderId);
    if (failed) {
      setBusy(false);
      setError(failed);
    }
  }

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
            <Button disabled={busy} onClick={() => void pay(order.id)}>
              {busy ? 'Taking you to PayFast...' : 'Pay for your cards'}
            </Button>
          </li>
        ))}
      </ul>
      {error ? <FormAlert>{error}</FormAlert> : null}
    </section>
  );
}

import { SA_TIME_ZONE } from '@digicard/domain';
import { cartTotal, formatRand, WebRoutes, type Order } from '@digicard/contracts';
import { Link } from 'react-router';
import { useCart } from '../../shop/hooks/use-cart';
import { useCartColours } from '../../shop/hooks/use-cart-colours';
import { LoadFailed } from '../../site/components/load-failed';
import { LoadMore } from '../../site/components/load-more';
import { useOrders } from '../hooks/use-billing';
import { CheckoutButton } from './checkout-button';

const day = new Intl.DateTimeFormat('en-ZA', { dateStyle: 'medium', timeZone: SA_TIME_ZONE });

export const ORDER_STATUS_TEXT: Record<Order['status'], string> = {
  'awaiting-payment': 'Awaiting payment',
  paid: 'Paid: we will send you the print proof',
  cancelled: 'Cancelled',
  'proof-ready': 'Proof ready: see Orders',
  'changes-requested': 'Changes requested',
  approved: 'Proof approved',
  printing: 'Printing',
  'nfc-encoded': 'NFC encoded',
  shipped: 'Shipped',
  delivered: 'Delivered',
  refunded: 'Refunded',
};

/** Accessories Cart (spec section 2): the basket with its checkout, and the owner's orders. */
export function AccessoriesCartSection() {
  const cart = useCart();
  useCartColours();
  const { state, retry, hasMore, more, loadMore } = useOrders();
  return (
    <>
      {cart.length === 0 ? (
        <p className="pe-list__empty">
          No Accessories selected. <Link to={WebRoutes.accessories}>Browse our NFC cards</Link>
        </p>
      ) : (
        <>
          <ul className="pe-cart">
            {cart.map((item) => (
              <li key={`${item.id}:${item.colour ?? ''}`}>{`${item.quantity} × ${item.name}${item.colour ? ` in ${item.colour}` : ''}`}</li>
            ))}
          </ul>
          <p className="pe-cart__total">{`Total: ${formatRand(cartTotal(cart))}`}</p>
          <p className="pe-actions">
            <CheckoutButton cart={cart} />
            <Link className="button-link button-link--secondary" to={WebRoutes.cart}>
              Change the basket
            </Link>
          </p>
        </>
      )}
      <h3 className="pe-subtitle">Your orders</h3>
      {state.status === 'loading' ? (
        <p role="status">Loading...</p>
      ) : state.status === 'failed' ? (
        <LoadFailed message={state.message} retry={retry} />
      ) : state.value.orders.length === 0 ? (
        <p className="pe-list__empty">No orders yet.</p>
      ) : (
        <ul className="pe-leads">
          {state.value.orders.map((order) => (
            <li key={order.id} className="pe-lead">
              <dl className="pe-lead__facts">
                <div>
                  <dt>Order</dt>
                  <dd>{order.reference}</dd>
                </div>
                <div>
                  <dt>Date</dt>
                  <dd>{day.format(new Date(order.createdAt))}</dd>
                </div>
                <div>
                  <dt>Cards</dt>
                  <dd>
                    {order.lines.map((line) => `${line.quantity} × ${line.name}${line.colour ? ` in ${line.colour}` : ''}`).join(', ')}
                  </dd>
                </div>
                <div>
                  <dt>Total</dt>
                  <dd>{formatRand(order.totalCents)}</dd>
                </div>
                <div>
                  <dt>Status</dt>
                  <dd>{ORDER_STATUS_TEXT[order.status]}</dd>
                </div>
              </dl>
            </li>
          ))}
        </ul>
      )}
      <LoadMore list="orders" hasMore={hasMore} more={more} onLoadMore={() => void loadMore()} />
    </>
  );
}

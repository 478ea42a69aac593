import { WebRoutes } from '@digicard/contracts';
import { NavLink } from 'react-router';
import { useCart } from '../hooks/use-cart';
import { cartCount } from '../utils/cart-store';

/** "Basket (n)" in the header while the basket holds something; n counts the cards, and follows every change. */
export function CartLink() {
  const count = cartCount(useCart());
  if (count === 0) return null;
  return (
    <NavLink to={WebRoutes.cart} className="cart-link">
      {`Basket (${count})`}
    </NavLink>
  );
}

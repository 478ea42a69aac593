import { cartTotal, formatRand, MAX_QUANTITY, unitPrice, WebRoutes, type CartItem } from '@digicard/contracts';
import { Container, VisuallyHidden } from '@digicard/ui';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { CheckoutButton } from '../modules/billing/components/checkout-button';
import { useCart } from '../modules/shop/hooks/use-cart';
import { useCartColours } from '../modules/shop/hooks/use-cart-colours';
import { cartStore } from '../modules/shop/utils/cart-store';
import { usePageMeta } from '../modules/site/hooks/use-page-meta';

export const EMPTY_CART_MESSAGE = 'No Accessories selected.';

/**
 * /cart: the basket kept in this browser. Each line: name, colour (changeable), unit price, quantity with - and +, Remove, its total;
 * then the basket total and the checkout (PayFast). Changes made in another tab show here at once.
 */
export function CartPage() {
  usePageMeta('Basket', 'The NFC cards and specials in your basket.');
  const cart = useCart();
  const catalogue = useCartColours();
  const coloursOf = (id: string): readonly string[] =>
    catalogue.status === 'loaded' ? (catalogue.items.find((i) => i.id === id)?.colors ?? []) : [];
  const [announcement, setAnnouncement] = useState('');
  const titleRef = useRef<HTMLHeadingElement>(null);

  // A stored basket with items that do not make sense (or duplicate lines) is written back cleaned.
  useEffect(() => {
    cartStore.clean();
  }, []);

  function decrease(item: CartItem, increaseButton: HTMLButtonElement | null) {
    cartStore.decrease(item);
    const quantity = Math.max(1, item.quantity - 1);
    setAnnouncement(`${item.name}: quantity ${quantity}.`);
    // The minus button is disabled at 1: keep the keyboard focus in the line.
    if (quantity === 1) increaseButton?.focus();
  }

  function increase(item: CartItem) {
    cartStore.increase(item);
    setAnnouncement(`${item.name}: quantity ${Math.min(MAX_QUANTITY, item.quantity + 1)}.`);
  }

  function remove(item: CartItem) {
    cartStore.remove(item);
    setAnnouncement(`${item.name} removed from your basket.`);
    titleRef.current?.focus();
  }

  function recolour(item: CartItem, colour: string) {
    cartStore.recolour(item, colour);
    setAnnouncement(`${item.name}: colour ${colour}.`);
  }

  return (
    <Container className="page cart-page">
      <h1 ref={titleRef} className="page__title cart-page__title" tabIndex={-1}>
        Your basket
      </h1>
      <VisuallyHidden role="status">{announcement}</VisuallyHidden>
      {cart.length === 0 ? (
        <>
          <p className="page__lead">{EMPTY_CART_MESSAGE}</p>
          <p className="page__actions">
            <Link to={WebRoutes.accessories} className="button-link">
              Browse our NFC cards
            </Link>
          </p>
        </>
      ) : (
        <>
          <ul className="cart-lines">
            {cart.map((item) => (
              <CartLine
                key={`${item.id}:${item.colour ?? ''}`}
                item={item}
                colours={coloursOf(item.id)}
                onDecrease={decrease}
                onIncrease={increase}
                onRemove={remove}
                onRecolour={recolour}
              />
            ))}
          </ul>
          <p className="cart-page__total">{`Total: ${formatRand(cartTotal(cart))}`}</p>
          <p className="cart-page__note">Prices exclude the monthly membership fees.</p>
          <p className="cart-page__checkout">
            <CheckoutButton cart={cart} />
          </p>
        </>
      )}
    </Container>
  );
}

interface CartLineProps {
  item: CartItem;
  /** The colours the item comes in (empty until the catalogue is read). */
  colours: readonly string[];
  onDecrease: (item: CartItem, increaseButton: HTMLButtonElement | null) => void;
  onIncrease: (item: CartItem) => void;
  onRemove: (item: CartItem) => void;
  onRecolour: (item: CartItem, colour: string) => void;
}

function CartLine({ item, colours, onDecrease, onIncrease, onRemove, onRecolour }: CartLineProps) {
  const increaseRef = useRef<HTMLButtonElement>(null);
  const price = unitPrice({ normalPrice: item.price, specialPrice: item.specialPrice });
  return (
    <li className="cart-line">
      <h2 className="cart-line__name">{item.name}</h2>
      <dl className="cart-line__facts">
        <div className="cart-line__fact">
          <dt>Colour</dt>
          <dd>
            {colours.length > 1 && item.colour ? (
              <select
                className="cart-line__colour"
                aria-label={`Colour of ${item.name}`}
                value={item.colour}
                onChange={(event) => onRecolour(item, event.target.value)}
              >
                {colours.map((colour) => (
                  <option key={colour} value={colour}>
                    {colour}
                  </option>
                ))}
              </select>
            ) : (
              <span>{item.colour ?? colours[0] ?? ''}</span>
            )}
          </dd>
        </div>
        <div className="cart-line__fact">
          <dt>Price</dt>
          <dd>{`${formatRand(price)} each`}</dd>
        </div>
        <div className="cart-line__fact">
          <dt>Quantity</dt>
          <dd className="quantity">
            <button
              type="button"
              className="quantity__button"
              aria-label={`Decrease quantity of ${item.name}`}
              disabled={item.quantity <= 1}
              onClick={() => onDecrease(item, increaseRef.current)}
            >
              <span aria-hidden="true">−</span>
            </button>
            <span className="quantity__value">{item.quantity}</span>
            <button
              ref={increaseRef}
              type="button"
              className="quantity__button"
              aria-label={`Increase quantity of ${item.name}`}
              disabled={item.quantity >= MAX_QUANTITY}
              onClick={() => onIncrease(item)}
            >
              <span aria-hidden="true">+</span>
            </button>
          </dd>
        </div>
        <div className="cart-line__fact">
          <dt>Subtotal</dt>
          <dd className="cart-line__total">{formatRand(price * item.quantity)}</dd>
        </div>
      </dl>
      <button type="button" className="cart-line__remove" onClick={() => onRemove(item)}>
        Remove <VisuallyHidden>{item.name}</VisuallyHidden>
      </button>
    </li>
  );
}

import { WebRoutes } from '@digicard/contracts';
import { Container } from '@digicard/ui';
import { useEffect } from 'react';
import { Link } from 'react-router';
import { CHECKOUT_ITEMS_MARKER, CHECKOUT_MARKER } from '../modules/billing/api/billing';
import { cartStore } from '../modules/shop/utils/cart-store';
import { usePageMeta } from '../modules/site/hooks/use-page-meta';

/**
 * After a checkout in this tab (not after a membership payment), the basket has become an order: empty it, or
 * remove only the lines it paid (the special offer pays its specials; accessories stay in the basket).
 */
function emptyBasketAfterCheckout(): void {
  let paidIds: unknown = null;
  try {
    if (!sessionStorage.getItem(CHECKOUT_MARKER)) return;
    sessionStorage.removeItem(CHECKOUT_MARKER);
    const items = sessionStorage.getItem(CHECKOUT_ITEMS_MARKER);
    sessionStorage.removeItem(CHECKOUT_ITEMS_MARKER);
    paidIds = items ? JSON.parse(items) : null;
  } catch {
    return;
  }
  if (!Array.isArray(paidIds)) {
    cartStore.clear();
    return;
  }
  for (const id of paidIds) {
    if (typeof id === 'string') cartStore.removeItem(id);
  }
}

/** /thank-you: where PayFast sends the buyer back after paying. */
export function ThankYouPage() {
  usePageMeta('Thank you', 'Thank you for your order. Approve your card’s print proof in your dashboard before we print it.');
  useEffect(emptyBasketAfterCheckout, []);
  return (
    <Container className="page narrow-page">
      <h1 className="page__title">Thank you for your order.</h1>
      <p className="page__lead">
        Next we make a print proof of your card. We email you when it is ready: approve it, or ask for changes, under Orders in your
        dashboard. We print only the proof you approve.
      </p>
      <p>Please check your mailbox, including the spam folder, for our emails.</p>
      <p>Meanwhile, complete your profile: it is what your card opens. Your QR code is in the QR Code section of your dashboard.</p>
      <p className="thank-you__closing">Happy networking with your Digital Business Profile!</p>
      <p className="page__actions">
        <Link to={WebRoutes.dashboard} className="button-link">
          Go to Dashboard
        </Link>
      </p>
    </Container>
  );
}

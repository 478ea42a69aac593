import { WebRoutes, type CartItem } from '@digicard/contracts';
import { Button, FormAlert } from '@digicard/ui';
import { useState } from 'react';
import { Link } from 'react-router';
import { useSession } from '../../session/hooks/use-session';
import { checkout, goToPayFast } from '../api/billing';

export const CHECKOUT_LABEL = 'Checkout with PayFast';

/**
 * Places the order (the server prices the basket) and sends the browser to PayFast. Signed out, it asks to log in
 * first: an order belongs to an account, whose dashboard shows its print proof later.
 */
export function CheckoutButton({ cart }: { cart: readonly CartItem[] }) {
  const session = useSession();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  if (session.status !== 'signed-in') {
    return (
      <Link className="button-link" to={WebRoutes.login}>
        Log in to check out
      </Link>
    );
  }

  async function pay() {
    setBusy(true);
    setError(null);
    const result = await checkout(cart);
    if (result.ok) return goToPayFast(result.data.redirectUrl, result.data.order.id);
    setBusy(false);
    setError(result.error.message);
  }

  return (
    <>
      <Button disabled={busy} onClick={() => void pay()}>
        {busy ? 'Taking you to PayFast...' : CHECKOUT_LABEL}
      </Button>
      {error ? <FormAlert>{error}</FormAlert> : null}
    </>
  );
}

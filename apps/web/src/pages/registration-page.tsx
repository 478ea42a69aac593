import {
  cartTotal,
  formatRand,
  unitPrice,
  WebRoutes,
  type ApiError,
  type CatalogueItem,
  type CartItem,
  type RegisterRequest,
} from '@digicard/contracts';
import { isSpecial, monthlyPrice, SPECIAL_MEMBERSHIP, specialIncludes, specialOfferSummary } from '@digicard/domain';
import { Button, Container, FormAlert, notice } from '@digicard/ui';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { RegisterForm, type RegisterSubmission } from '../modules/accounts/components/register-form';
import { goToPayFast, registerSpecial } from '../modules/billing/api/billing';
import { usePlans } from '../modules/packages/hooks/use-plans';
import { LoadingNotice } from '../modules/session/components/loading-notice';
import { CatalogueStatus } from '../modules/shop/components/catalogue-status';
import { useSession } from '../modules/session/hooks/use-session';
import { useCart } from '../modules/shop/hooks/use-cart';
import { useCartColours } from '../modules/shop/hooks/use-cart-colours';
import { cartStore } from '../modules/shop/utils/cart-store';
import { usePageMeta } from '../modules/site/hooks/use-page-meta';

/** The spec's alert before the browser leaves for PayFast (section 2, "Thanks for joining!"). */
export const JOINED_ALERT =
  'Thanks for joining! Please verify your email address: we have sent you a link. It signs you in, on this device or another, and then you pay for your cards at PayFast.';
export const PAY_ALERT = 'You will now go to PayFast to pay for your cards.';
/** The spec's failure alert (section 8), followed by the server's message. */
export const REGISTER_FAILED_PREFIX = 'Failed to register: ';
export const NO_SPECIALS_MESSAGE = 'No specials selected.';

/** A basket line with its catalogue item, when the catalogue has it. */
type Line = { readonly line: CartItem; readonly item: CatalogueItem | undefined };

/** The gateway names the sign-up's fields `account.<field>`; the form's fields are the bare names. */
function withFormFieldNames(error: ApiError): ApiError {
  if (!error.fieldErrors) return error;
  return {
    ...error,
    fieldErrors: Object.fromEntries(Object.entries(error.fieldErrors).map(([key, messages]) => [key.replace(/^account\./, ''), messages])),
  };
}

/**
 * /registration: the special offer. The specials in the basket (the catalogue says which lines are specials:
 * libs/domain `isSpecial`) at their special prices, what each includes and their total, the sign-up form (the
 * register form's fields and validation), then PayFast: the cards now, and the months of DigiGold a special includes
 * (the plan's monthly price after that, until cancelled); a special without DigiGold says so. A signed-in owner sees
 * the same page without the form. Accessories in the basket stay there: they are bought from the basket.
 */
export function RegistrationPage() {
  usePageMeta('Special offer', 'Sign up and pay for your NFC card special.');
  const session = useSession();
  const navigate = useNavigate();
  const cart = useCart();
  const catalogue = useCartColours();
  // The monthly price after the included months is the plan payments serves (said in general terms until it is known).
  const plans = usePlans();
  const lines: Line[] = cart.map((line) => ({
    line,
    item: catalogue.status === 'loaded' ? catalogue.items.find((i) => i.id === line.id) : undefined,
  }));
  const specialLines = lines.filter((l) => l.item !== undefined && isSpecial(l.item));
  const specials = specialLines.map((l) => l.line);
  const accessories = lines.filter((l) => !specialLines.includes(l)).map((l) => l.line);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function send(account: RegisterRequest | null): Promise<{ error: ApiError; message: string } | null> {
    const result = await registerSpecial(account, specials);
    if (result.ok) {
      if ('registered' in result.data) {
        // Signed up (or the email has an account: the same answer). The specials went with the sign-up: a new
        // account's order is on the server, paid once the emailed link signs it in (in any browser), so they leave
        // the basket here.
        for (const item of specials) cartStore.remove(item);
        await notice({ title: JOINED_ALERT });
        void navigate(WebRoutes.verifyEmail, { replace: true });
        return null;
      }
      await notice({ title: PAY_ALERT });
      goToPayFast(
        result.data.redirectUrl,
        result.data.order.id,
        specials.map((item) => item.id),
      );
      return null;
    }
    // The server's own words: a refused field's message (email taken, say) says more than "correct the fields".
    const detail = Object.values(result.error.fieldErrors ?? {})[0]?.[0] ?? result.error.message;
    const message = `${REGISTER_FAILED_PREFIX}${detail}`;
    void notice({ title: message });
    return { error: withFormFieldNames(result.error), message };
  }

  const submission: RegisterSubmission = { send, submitLabel: 'Register and pay', busyLabel: 'Taking you to PayFast...' };

  async function pay() {
    setBusy(true);
    setError(null);
    const failed = await send(null);
    if (failed) {
      setBusy(false);
      setError(failed.message);
    }
  }

  return (
    <Container className="page account-page registration-page">
      <h1 id="registration-title" className="page__title">
        Special offer
      </h1>
      {cart.length > 0 && catalogue.status !== 'loaded' ? (
        catalogue.status === 'failed' ? (
          <CatalogueStatus state={catalogue} />
        ) : (
          <LoadingNotice />
        )
      ) : specials.length === 0 ? (
        <>
          <p className="page__lead">{NO_SPECIALS_MESSAGE}</p>
          <p className="page__actions">
            <Link to={WebRoutes.pricing} className="button-link">
              See our specials
            </Link>
          </p>
        </>
      ) : (
        <>
          <p className="page__lead">
            {specialOfferSummary(
              specialLines.map((l) => l.item!),
              monthlyPrice(SPECIAL_MEMBERSHIP, plans.status === 'loaded' ? plans.plans : []),
            )}
          </p>
          <ul className="cart-lines registration-page__lines" aria-label="Your specials">
            {specialLines.map(({ line: item, item: special }) => (
              <li key={`${item.id}:${item.colour ?? ''}`} className="cart-line">
                <span className="cart-line__name">
                  {`${item.quantity > 1 ? `${item.quantity} x ${item.name}` : item.name}${item.colour ? ` in ${item.colour}` : ''}`}
                </span>{' '}
                <span className="cart-line__price">
                  {formatRand(unitPrice({ normalPrice: item.price, specialPrice: item.specialPrice }))}{' '}
                  <s aria-label={`normal price ${formatRand(item.price)}`}>{formatRand(item.price)}</s>
                </span>{' '}
                <span className="cart-line__includes">{specialIncludes(special!)}</span>
              </li>
            ))}
          </ul>
          <p className="cart-page__total">{`Total: ${formatRand(cartTotal(specials))}`}</p>
          {accessories.length > 0 ? (
            <p className="item-page__note">
              {`Not included here: ${accessories.map((item) => item.name).join(', ')}. Accessories are bought from `}
              <Link to={WebRoutes.cart}>your basket</Link>.
            </p>
          ) : null}
          {session.status === 'loading' ? (
            <LoadingNotice />
          ) : session.status === 'signed-in' ? (
            <p className="page__actions">
              <Button disabled={busy} onClick={() => void pay()}>
                {busy ? 'Taking you to PayFast...' : 'Pay with PayFast'}
              </Button>
              {error ? <FormAlert>{error}</FormAlert> : null}
            </p>
          ) : (
            <>
              <h2 id="registration-form-title" className="item-page__subtitle">
                Sign up
              </h2>
              <RegisterForm labelledBy="registration-form-title" submission={submission} />
            </>
          )}
        </>
      )}
    </Container>
  );
}

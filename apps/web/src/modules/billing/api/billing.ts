import { HttpRoutes, type CartItem, type PaidTier, type RegisterRequest } from '@digicard/contracts';
import { deleteJson, getJson, getPage, postJson, putJson } from '../../api/http';

/** GET /api/billing: the tier and the subscription. */
export const fetchBilling = () => getJson(HttpRoutes.getBilling);

/** GET /api/billing/payments: a page of the owner's payments, newest first (the first without a cursor). */
export const fetchPayments = (cursor: string | null = null) => getPage(HttpRoutes.listBillingPayments, cursor);

/** POST /api/billing/membership: where to pay the first month of a paid tier at PayFast. */
export const startMembership = (tier: PaidTier) => postJson(HttpRoutes.startMembership, { tier });

/** PUT /api/billing/membership: changes an active subscription to the other paid tier from the next billing date. */
export const changeMembership = (tier: PaidTier) => putJson(HttpRoutes.changeMembership, { tier });

/** DELETE /api/billing/membership: cancels at PayFast; the tier stays until the end of the paid month. */
export const cancelMembership = () => deleteJson(HttpRoutes.cancelMembership);

/** GET /api/orders: a page of the owner's orders, newest first (the first without a cursor). */
export const fetchOrders = (cursor: string | null = null) => getPage(HttpRoutes.listOrders, cursor);

/** POST /api/orders: the basket as ids and quantities (the server prices it); answers where to pay. */
/** The basket's lines as the checkout takes them: id, colour (a line kept from before colours: none, the first) and quantity. */
const checkoutItems = (cart: readonly CartItem[]) =>
  cart.map(({ id, colour, quantity }) => ({ id, ...(colour ? { colour } : {}), quantity }));

export const checkout = (cart: readonly CartItem[]) => postJson(HttpRoutes.checkout, { items: checkoutItems(cart) });

/**
 * POST /api/registration: the special offer. With `account`: signs up, and a new account's order for the specials
 * is placed on the server (paid after the emailed link signs it in). Signed in (`account` null): places the order
 * and answers where to pay it at PayFast with its year of DigiGold.
 */
export const registerSpecial = (account: RegisterRequest | null, specials: readonly CartItem[]) =>
  postJson(HttpRoutes.registerSpecial, { account, items: checkoutItems(specials) });

/** The basket lines a checkout in this tab pays (the special offer pays only its specials): /thank-you removes them. */
export const CHECKOUT_ITEMS_MARKER = 'digicard:checkout-items';

/**
 * The browser leaves for PayFast's page. The order id is remembered for this tab, so /thank-you empties the basket
 * only after a checkout (a membership payment returns there too, and must not).
 */
export const CHECKOUT_MARKER = 'digicard:checkout';

export function goToPayFast(redirectUrl: string, orderId?: string, paidItemIds?: readonly string[]): void {
  if (orderId) {
    try {
      sessionStorage.setItem(CHECKOUT_MARKER, orderId);
      if (paidItemIds) sessionStorage.setItem(CHECKOUT_ITEMS_MARKER, JSON.stringify(paidItemIds));
      else sessionStorage.removeItem(CHECKOUT_ITEMS_MARKER);
    } catch {
      // Storage refused (some private modes): the basket simply stays after payment.
    }
  }
  window.location.assign(redirectUrl);
}

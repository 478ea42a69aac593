import { HttpRoutes, type CartItem, type PaidTier } from '@digicard/contracts';
import { deleteJson, getJson, postJson } from '../../api/http';

/** GET /api/billing: the tier, the subscription and the payments. */
export const fetchBilling = () => getJson(HttpRoutes.getBilling);

/** POST /api/billing/membership: where to pay the first month of a paid tier at PayFast. */
export const startMembership = (tier: PaidTier) => postJson(HttpRoutes.startMembership, { tier });

/** DELETE /api/billing/membership: cancels at PayFast; the tier stays until the end of the paid month. */
export const cancelMembership = () => deleteJson(HttpRoutes.cancelMembership);

/** GET /api/orders: the owner's orders, newest first. */
export const fetchOrders = () => getJson(HttpRoutes.listOrders);

/** POST /api/orders: the basket as ids and quantities (the server prices it); answers where to pay. */
export const checkout = (cart: readonly CartItem[]) => postJson(HttpRoutes.checkout, { items: cart.map(({ id, quantity }) => ({ id, quantity })) });

/**
 * The browser leaves for PayFast's page. The order id is remembered for this tab, so /thank-you empties the basket
 * only after a checkout (a membership payment returns there too, and must not).
 */
export const CHECKOUT_MARKER = 'digicard:checkout';

export function goToPayFast(redirectUrl: string, orderId?: string): void {
  if (orderId) {
    try {
      sessionStorage.setItem(CHECKOUT_MARKER, orderId);
    } catch {
      // Storage refused (some private modes): the basket simply stays after payment.
    }
  }
  window.location.assign(redirectUrl);
}

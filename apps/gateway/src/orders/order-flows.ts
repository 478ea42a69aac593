import { Inject, Injectable } from '@nestjs/common';
import {
  AccountMessages,
  ErrorCode,
  Rpc,
  type CheckoutRequest,
  type CheckoutResponse,
  type Order,
  type RegisteredResponse,
  type RequestMeta,
  type SpecialRegistrationRequest,
} from '@digicard/contracts';
import { ApiHttpException } from '@digicard/server';
import { GatewayRpc } from '../rpc/rpc.client.js';

/** Checkout: two services in turn, orders (keeps and prices the order), then payments (where to pay it). */
@Injectable()
export class OrderFlows {
  constructor(@Inject(GatewayRpc) private readonly rpc: GatewayRpc) {}

  /**
   * Places the order, then asks payments for the signed PayFast request. When payments does not answer, the order
   * stays awaiting payment and the client gets that error (503): `payOrder` (POST /api/orders/:orderId/payment)
   * asks for the payment again for the same order, so nothing is placed twice.
   */
  async checkout(basket: CheckoutRequest, meta: RequestMeta): Promise<CheckoutResponse> {
    const order = await this.rpc.call(Rpc.placeOrder, basket, meta);
    const { redirectUrl } = await this.rpc.call(Rpc.startOrderPayment, { orderId: order.id }, meta);
    return { order, redirectUrl };
  }

  /**
   * The special offer (/registration): the specials are checked against the catalogue first (400, nothing created).
   *
   * With an account (a visitor): registered exactly as `register` does, and answered the same whether the email was
   * new or has an account (whose owner identity emails): no session. The specials go with the sign-up: a new
   * account's event carries them and orders places their order, awaiting payment (a taken email gets nothing). The
   * verification link signs the new account in, in any browser, and the order is paid from there or the dashboard.
   *
   * Signed in (`account: null`): the order for the specials, then payments' PayFast subscription request (the
   * specials now, DigiGold monthly from a year out). A retry after a 503 (payments did not answer) reuses the
   * account's open order with the same lines instead of placing a second one.
   */
  async registerSpecial(body: SpecialRegistrationRequest, meta: RequestMeta): Promise<CheckoutResponse | RegisteredResponse> {
    if (body.account && meta.userId) throw refuse(409, ErrorCode.ValidationFailed, 'You are signed in already: there is no need to register again.');
    if (!body.account && !meta.userId) throw refuse(401, ErrorCode.Unauthorized, 'Please fill in your details to sign up.');
    await this.onlySpecials(body.items, meta);
    if (body.account) {
      await this.rpc.call(Rpc.register, { ...body.account, specials: body.items }, meta);
      return { registered: true, message: AccountMessages.registered };
    }
    const order = (await this.openOrderFor(body.items, meta)) ?? (await this.rpc.call(Rpc.placeOrder, { items: body.items }, meta));
    const { redirectUrl } = await this.rpc.call(Rpc.startSpecialPayment, { orderId: order.id }, meta);
    return { order, redirectUrl };
  }

  /** The account's newest order awaiting payment whose lines are these items (ids and quantities, in any order). */
  private async openOrderFor(items: CheckoutRequest['items'], meta: RequestMeta): Promise<Order | null> {
    const key = (lines: ReadonlyArray<{ id: string; quantity: number }>) => JSON.stringify(lines.map((l) => `${l.id}x${l.quantity}`).sort());
    const wanted = key(items);
    const { orders } = await this.rpc.call(Rpc.listOrders, {}, meta);
    return orders.find((o) => o.status === 'awaiting-payment' && key(o.lines.map((l) => ({ id: l.itemId, quantity: l.quantity }))) === wanted) ?? null;
  }

  /** Only specials (a card with months of DigiGold) are sold this way; accessories are bought from the basket. */
  private async onlySpecials(items: CheckoutRequest['items'], meta: RequestMeta): Promise<void> {
    const { items: catalogue } = await this.rpc.call(Rpc.listCatalogue, {}, meta);
    const specials = new Set(catalogue.filter((item) => item.kind === 'special' && item.includedGoldMonths > 0).map((item) => item.id));
    const refused = items.flatMap((line, index) => (specials.has(line.id) ? [] : [[index, line.id] as const]));
    if (refused.length === 0) return;
    throw new ApiHttpException({
      statusCode: 400,
      code: ErrorCode.ValidationFailed,
      message: 'Only specials are sold with a sign-up; please buy other cards from the basket.',
      fieldErrors: Object.fromEntries(refused.map(([index, id]) => [`items.${index}.id`, [`“${id}” is not a special.`]])),
    });
  }
}

const refuse = (statusCode: number, code: string, message: string) => new ApiHttpException({ statusCode, code, message });

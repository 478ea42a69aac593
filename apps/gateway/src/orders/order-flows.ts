import { Inject, Injectable } from '@nestjs/common';
import {
  AccountMessages,
  catalogueColour,
  colourRefusal,
  ErrorCode,
  Rpc,
  type CatalogueItem,
  type CheckoutRequest,
  type CheckoutResponse,
  type Order,
  type RegisteredResponse,
  type RequestMeta,
  type SpecialRegistrationRequest,
} from '@digicard/contracts';
import { isSpecial } from '@digicard/domain';
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
    if (body.account && meta.userId)
      throw refuse(409, ErrorCode.ValidationFailed, 'You are signed in already: there is no need to register again.');
    if (!body.account && !meta.userId) throw refuse(401, ErrorCode.Unauthorized, 'Please fill in your details to sign up.');
    const catalogue = await this.onlySpecials(body.items, meta);
    if (body.account) {
      await this.rpc.call(Rpc.register, { ...body.account, specials: body.items }, meta);
      return { registered: true, message: AccountMessages.registered };
    }
    const order =
      (await this.openOrderFor(body.items, catalogue, meta)) ?? (await this.rpc.call(Rpc.placeOrder, { items: body.items }, meta));
    const { redirectUrl } = await this.rpc.call(Rpc.startSpecialPayment, { orderId: order.id }, meta);
    return { order, redirectUrl };
  }

  /**
   * The account's newest order awaiting payment whose lines are these items (ids, colours and quantities, in any
   * order; a line without a colour is the item's first, as the order placed for it has). Only the newest page of
   * orders is looked at: a retry follows the order it repeats.
   */
  private async openOrderFor(items: CheckoutRequest['items'], catalogue: CatalogueItem[], meta: RequestMeta): Promise<Order | null> {
    const colourOf = (id: string, colour: string | undefined) =>
      (colour ?? catalogue.find((i) => i.id === id)?.colors[0] ?? '').toLowerCase();
    const key = (lines: ReadonlyArray<{ id: string; quantity: number; colour?: string | undefined }>) =>
      JSON.stringify(lines.map((l) => `${l.id}:${colourOf(l.id, l.colour)}x${l.quantity}`).sort());
    const wanted = key(items);
    const { orders } = await this.rpc.call(Rpc.listOrders, {}, meta);
    return (
      orders.find(
        (o) =>
          o.status === 'awaiting-payment' && key(o.lines.map((l) => ({ id: l.itemId, quantity: l.quantity, colour: l.colour }))) === wanted,
      ) ?? null
    );
  }

  /**
   * Only specials (libs/domain `isSpecial`, with or without months of DigiGold) are sold this way; accessories are
   * bought from the basket. Each
   * colour is one its special comes in (checked here too: a sign-up's order is placed later, from identity's event).
   */
  private async onlySpecials(items: CheckoutRequest['items'], meta: RequestMeta): Promise<CatalogueItem[]> {
    const { items: catalogue } = await this.rpc.call(Rpc.listCatalogue, {}, meta);
    const specials = new Map(catalogue.filter(isSpecial).map((item) => [item.id, item]));
    const refused = items.flatMap((line, index) => (specials.has(line.id) ? [] : [[index, line.id] as const]));
    if (refused.length > 0) {
      throw new ApiHttpException({
        statusCode: 400,
        code: ErrorCode.ValidationFailed,
        message: 'Only specials are sold with a sign-up; please buy other cards from the basket.',
        fieldErrors: Object.fromEntries(refused.map(([index, id]) => [`items.${index}.id`, [`“${id}” is not a special.`]])),
      });
    }
    const wrongColour = items.flatMap((line, index) => {
      const item = specials.get(line.id)!;
      return line.colour === undefined || catalogueColour(item, line.colour) ? [] : [[index, colourRefusal(item)] as const];
    });
    if (wrongColour.length > 0) {
      throw new ApiHttpException({
        statusCode: 400,
        code: ErrorCode.ValidationFailed,
        message: 'Please choose a colour the card comes in.',
        fieldErrors: Object.fromEntries(wrongColour.map(([index, message]) => [`items.${index}.colour`, [message]])),
      });
    }
    return catalogue;
  }
}

const refuse = (statusCode: number, code: string, message: string) => new ApiHttpException({ statusCode, code, message });

import { Inject, Injectable } from '@nestjs/common';
import type { Response } from 'express';
import {
  ErrorCode,
  Rpc,
  type CheckoutRequest,
  type CheckoutResponse,
  type RequestMeta,
  type SpecialRegistrationRequest,
} from '@digicard/contracts';
import { ApiHttpException } from '@digicard/server';
import { SessionSignIn } from '../auth/session-sign-in.js';
import { GatewayRpc } from '../rpc/rpc.client.js';
import type { Session } from '../session/session.store.js';

/** Checkout: two services in turn, orders (keeps and prices the order), then payments (where to pay it). */
@Injectable()
export class OrderFlows {
  constructor(
    @Inject(GatewayRpc) private readonly rpc: GatewayRpc,
    @Inject(SessionSignIn) private readonly signIn: SessionSignIn,
  ) {}

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
   * The special offer (/registration): the specials are checked against the catalogue first (400, nothing created),
   * then the visitor is registered and signed in as `register` does (a signed-in owner sends `account: null`), the
   * order is placed for that account, and payments answers the PayFast subscription request (the specials now,
   * DigiGold monthly from a year out).
   *
   * Each step is kept when a later one fails. When payments does not answer, the account (signed in, its cookie
   * set) and the order exist and the client gets 503: the order stays awaiting payment and can be paid later from
   * the dashboard; registering again is not needed.
   */
  async registerSpecial(body: SpecialRegistrationRequest, meta: RequestMeta, session: Session | null, res: Response): Promise<CheckoutResponse> {
    if (body.account && meta.userId) throw refuse(409, ErrorCode.ValidationFailed, 'You are signed in already: there is no need to register again.');
    if (!body.account && !meta.userId) throw refuse(401, ErrorCode.Unauthorized, 'Please fill in your details to sign up.');
    await this.onlySpecials(body.items, meta);
    let buyer = meta;
    if (body.account) {
      const user = await this.rpc.call(Rpc.register, body.account, meta);
      await this.signIn.start(res, user, session);
      buyer = { ...meta, userId: user.id, role: user.role };
    }
    const order = await this.rpc.call(Rpc.placeOrder, { items: body.items }, buyer);
    const { redirectUrl } = await this.rpc.call(Rpc.startSpecialPayment, { orderId: order.id }, buyer);
    return { order, redirectUrl };
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

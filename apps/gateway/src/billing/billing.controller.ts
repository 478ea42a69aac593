import { Controller, Inject } from '@nestjs/common';
import {
  HttpRoutes,
  Rpc,
  type Billing,
  type PageRequest,
  type PaymentHistory,
  type PaymentRedirect,
  type PlanList,
  type RequestMeta,
  type StartMembership,
} from '@digicard/contracts';
import { Meta } from '../http/request-meta.js';
import { Route } from '../http/route.js';
import { UploadedBytes, ValidBody, ValidQuery } from '../http/route-params.js';
import { GatewayRpc } from '../rpc/rpc.client.js';
import { assertItnText } from './itn-body.js';

/** Memberships and PayFast: the plans, the owner's billing, and PayFast's notifications. */
@Controller()
export class BillingController {
  constructor(@Inject(GatewayRpc) private readonly rpc: GatewayRpc) {}

  @Route(HttpRoutes.listPlans)
  plans(@Meta() meta: RequestMeta): Promise<PlanList> {
    return this.rpc.call(Rpc.listPlans, {}, meta);
  }

  @Route(HttpRoutes.getBilling)
  billing(@Meta() meta: RequestMeta): Promise<Billing> {
    return this.rpc.call(Rpc.getBilling, {}, meta);
  }

  @Route(HttpRoutes.listBillingPayments)
  payments(@ValidQuery() page: PageRequest, @Meta() meta: RequestMeta): Promise<PaymentHistory> {
    return this.rpc.call(Rpc.listPayments, page, meta);
  }

  @Route(HttpRoutes.startMembership)
  start(@ValidBody() body: StartMembership, @Meta() meta: RequestMeta): Promise<PaymentRedirect> {
    return this.rpc.call(Rpc.startMembership, body, meta);
  }

  @Route(HttpRoutes.changeMembership)
  change(@ValidBody() body: StartMembership, @Meta() meta: RequestMeta): Promise<Billing> {
    return this.rpc.call(Rpc.changeMembership, body, meta);
  }

  @Route(HttpRoutes.cancelMembership)
  cancel(@Meta() meta: RequestMeta): Promise<Billing> {
    return this.rpc.call(Rpc.cancelMembership, {}, meta);
  }

  /**
   * PayFast's ITN, passed on as the bytes it posted (its signature is over them as they are) with the address it
   * came from (`req.ip`: behind TRUST_PROXY proxies). 200 once payments has kept it, whatever the verdict; 503 when
   * payments does not answer, so PayFast sends it again; 400 for a body that is not text (`assertItnText`).
   */
  @Route(HttpRoutes.payfastNotify)
  async notify(@UploadedBytes() body: Buffer, @Meta() meta: RequestMeta): Promise<void> {
    assertItnText(body);
    await this.rpc.call(Rpc.receiveItn, { rawBody: body.toString('utf8'), sourceIp: meta.ip }, meta);
  }
}

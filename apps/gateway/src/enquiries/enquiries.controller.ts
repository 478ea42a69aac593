import { Controller, Inject } from '@nestjs/common';
import {
  HttpRoutes,
  Rpc,
  type CallBackEnquiry,
  type EnquiryAccepted,
  type MessageEnquiry,
  type QuoteEnquiry,
  type RequestMeta,
} from '@digicard/contracts';
import { Meta } from '../http/request-meta.js';
import { Route } from '../http/route.js';
import { ValidBody } from '../http/route-params.js';
import { GatewayRpc } from '../rpc/rpc.client.js';

@Controller()
export class EnquiriesController {
  constructor(@Inject(GatewayRpc) private readonly rpc: GatewayRpc) {}

  @Route(HttpRoutes.submitCallBackEnquiry)
  callBack(@ValidBody() body: CallBackEnquiry, @Meta() meta: RequestMeta): Promise<EnquiryAccepted> {
    return this.rpc.call(Rpc.submitEnquiry, { kind: 'call-back', ...body }, meta);
  }

  @Route(HttpRoutes.submitMessageEnquiry)
  message(@ValidBody() body: MessageEnquiry, @Meta() meta: RequestMeta): Promise<EnquiryAccepted> {
    return this.rpc.call(Rpc.submitEnquiry, { kind: 'message', ...body }, meta);
  }

  @Route(HttpRoutes.submitQuoteEnquiry)
  quote(@ValidBody() body: QuoteEnquiry, @Meta() meta: RequestMeta): Promise<EnquiryAccepted> {
    return this.rpc.call(Rpc.submitEnquiry, { kind: 'quote', ...body }, meta);
  }
}

import { Body, Controller, HttpCode, Inject, Post } from '@nestjs/common';
import {
  CallBackEnquirySchema,
  HttpRoutes,
  MessageEnquirySchema,
  Rpc,
  type CallBackEnquiry,
  type EnquiryAccepted,
  type MessageEnquiry,
  type RequestMeta,
} from '@digicard/contracts';
import { CONFIG } from '@digicard/server';
import type { Config } from '../config.js';
import { Meta } from '../http/request-meta.js';
import { ZodBody } from '../http/zod-body.pipe.js';
import { GatewayRpc } from '../rpc/rpc.client.js';
import { RateLimiter } from '../security/rate-limiter.js';

@Controller()
export class EnquiriesController {
  constructor(
    @Inject(GatewayRpc) private readonly rpc: GatewayRpc,
    @Inject(RateLimiter) private readonly limiter: RateLimiter,
    @Inject(CONFIG) private readonly config: Config,
  ) {}

  @Post(HttpRoutes.submitCallBackEnquiry.path)
  @HttpCode(202)
  async callBack(@Body(new ZodBody(CallBackEnquirySchema)) body: CallBackEnquiry, @Meta() meta: RequestMeta): Promise<EnquiryAccepted> {
    await this.limiter.hit('enquiry', meta.ip ?? 'unknown', this.config.ENQUIRY_RATE_LIMIT);
    return this.rpc.call(Rpc.submitEnquiry, { kind: 'call-back', ...body }, meta);
  }

  @Post(HttpRoutes.submitMessageEnquiry.path)
  @HttpCode(202)
  async message(@Body(new ZodBody(MessageEnquirySchema)) body: MessageEnquiry, @Meta() meta: RequestMeta): Promise<EnquiryAccepted> {
    await this.limiter.hit('enquiry', meta.ip ?? 'unknown', this.config.ENQUIRY_RATE_LIMIT);
    return this.rpc.call(Rpc.submitEnquiry, { kind: 'message', ...body }, meta);
  }
}

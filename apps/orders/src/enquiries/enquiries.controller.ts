import { Controller, Inject } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { Rpc, type EnquiryAccepted } from '@digicard/contracts';
import { parseRpc } from '@digicard/server';
import { EnquiriesService } from './enquiries.service.js';

@Controller()
export class EnquiriesController {
  constructor(@Inject(EnquiriesService) private readonly enquiries: EnquiriesService) {}

  @MessagePattern(Rpc.submitEnquiry.subject)
  submit(@Payload() payload: unknown): Promise<EnquiryAccepted> {
    return this.enquiries.submit(parseRpc(Rpc.submitEnquiry, payload).body);
  }
}

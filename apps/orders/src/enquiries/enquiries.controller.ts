import { Controller, Inject } from '@nestjs/common';
import { Rpc, type EnquiryAccepted, type SubmitEnquiryRequest } from '@digicard/contracts';
import { Handles } from '@digicard/server';
import { EnquiriesService } from './enquiries.service.js';

@Controller()
export class EnquiriesController {
  constructor(@Inject(EnquiriesService) private readonly enquiries: EnquiriesService) {}

  @Handles(Rpc.submitEnquiry)
  submit(enquiry: SubmitEnquiryRequest): Promise<EnquiryAccepted> {
    return this.enquiries.submit(enquiry);
  }
}

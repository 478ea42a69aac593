import { Controller, Inject } from '@nestjs/common';
import { Rpc } from '@digicard/contracts';
import { Handles, type RpcBody } from '@digicard/server';
import { SubmitEnquiry } from './use-cases/submit-enquiry.use-case.js';

/** The marketing site's enquiry form: public, one call. */
@Controller()
export class EnquiriesController {
  constructor(@Inject(SubmitEnquiry) private readonly submitEnquiry: SubmitEnquiry) {}

  @Handles(Rpc.submitEnquiry)
  submit(enquiry: RpcBody<typeof Rpc.submitEnquiry>) {
    return this.submitEnquiry.execute(enquiry);
  }
}

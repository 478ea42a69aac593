import { Inject, Injectable } from '@nestjs/common';
import type { z } from 'zod';
import { Events } from '@digicard/contracts';
import { OnEvent, type EventContext } from '@digicard/server';
import { EnquiriesRepository } from './enquiries.repository.js';

/**
 * A deleted account (POPIA): the sales enquiries sent under the address it had verified go with it. Orders themselves
 * stay (they are the business's records of a sale); the export only ever showed enquiries under a verified address.
 */
@Injectable()
export class ForgetDeletedAccountEnquiries {
  constructor(@Inject(EnquiriesRepository) private readonly enquiries: EnquiriesRepository) {}

  @OnEvent(Events.userDeleted)
  async execute({ email }: z.output<(typeof Events.userDeleted)['data']>, { tx }: EventContext): Promise<void> {
    if (email) await this.enquiries.forgetEmail(tx, email);
  }
}

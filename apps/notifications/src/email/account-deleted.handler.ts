import { Inject, Injectable } from '@nestjs/common';
import type { z } from 'zod';
import { Events } from '@digicard/contracts';
import { OnEvent, type EventContext } from '@digicard/server';
import { CrmHandoff } from '../crm/crm-handoff.js';
import { MailLogRepository } from './mail-log.repository.js';

/**
 * A deleted account (POPIA): its CRM webhook and deliveries go (`CrmHandoff.accountDeleted`), and the mail log under
 * the address it had verified. The one consumer of `identity.user.deleted` in this service.
 */
@Injectable()
export class AccountDeleted {
  constructor(
    @Inject(MailLogRepository) private readonly log: MailLogRepository,
    @Inject(CrmHandoff) private readonly crm: CrmHandoff,
  ) {}

  @OnEvent(Events.userDeleted)
  async execute(data: z.output<(typeof Events.userDeleted)['data']>, context: EventContext): Promise<void> {
    await this.crm.accountDeleted(data, context);
    if (data.email) await this.log.forget(context.tx, data.email);
  }
}

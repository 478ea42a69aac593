import { Controller, Inject } from '@nestjs/common';
import { Rpc } from '@digicard/contracts';
import { Handles, type RpcBody, type SignedInMeta } from '@digicard/server';
import { MailLogQueries } from './mail-log-queries.js';

/** The mail log's subject: one call. */
@Controller()
export class MailLogController {
  constructor(@Inject(MailLogQueries) private readonly queries: MailLogQueries) {}

  @Handles(Rpc.exportMailData)
  exportData(page: RpcBody<typeof Rpc.exportMailData>, meta: SignedInMeta) {
    return this.queries.accountData(meta, page);
  }
}

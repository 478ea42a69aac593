import { Inject, Injectable } from '@nestjs/common';
import { Rpc, type ExportChunk, type PageRequest } from '@digicard/contracts';
import type { Database } from '@digicard/db';
import { DATABASE, exportChunk, toPage, type ExportList, type RpcClient, type SignedInMeta, RPC_CLIENT } from '@digicard/server';
import { MailLogRepository } from './mail-log.repository.js';

/**
 * The mail log of the signed-in account (POPIA's right of access): what we emailed its address, when, and whether it
 * went out. The address is the one identity says the account proved (`provedEmail`: a link sent to it was followed),
 * never taken from the request. The emails' bodies are not kept, so only their subjects are shown.
 */
@Injectable()
export class MailLogQueries {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(RPC_CLIENT) private readonly bus: RpcClient,
    @Inject(MailLogRepository) private readonly log: MailLogRepository,
  ) {}

  /** The mail log a page at a time (`mailLog`, oldest first): an address may have had thousands of emails. */
  accountData(meta: SignedInMeta, request: PageRequest): Promise<ExportChunk> {
    const mailLog: ExportList = {
      name: 'mailLog',
      read: async (start, limit, part) => {
        const { email } = await this.bus.call(Rpc.provedEmail, { accountId: meta.userId }, meta);
        // Only an address the account proved: registering someone else's address unverified, or a leader typing it
        // for a rep, must not show the subjects of the mail sent to it. Asked again for every page.
        if (!email) return { items: [], nextCursor: null };
        return toPage(
          await this.log.sentToPage(this.db, email, start, limit),
          limit,
          (rows) =>
            rows.map((r) => ({
              template: r.template,
              to: r.recipient,
              subject: r.subject,
              status: r.status,
              attempts: r.attempts,
              createdAt: r.createdAt.toISOString(),
              updatedAt: r.updatedAt.toISOString(),
            })),
          part,
        );
      },
    };
    return exportChunk(request, () => Promise.resolve({}), [mailLog]);
  }
}

import { Inject, Injectable } from '@nestjs/common';
import { Rpc } from '@digicard/contracts';
import type { Database } from '@digicard/db';
import { DATABASE, type RpcClient, type SignedInMeta, RPC_CLIENT } from '@digicard/server';
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

  async accountData(meta: SignedInMeta): Promise<Record<string, unknown>> {
    const { email } = await this.bus.call(Rpc.provedEmail, { accountId: meta.userId }, meta);
    // Only an address the account proved: registering someone else's address unverified, or a leader typing it for a
    // rep, must not show the subjects of the mail sent to it.
    const rows = email ? await this.log.sentTo(this.db, email) : [];
    return {
      mailLog: rows.map((r) => ({
        template: r.template,
        to: r.recipient,
        subject: r.subject,
        status: r.status,
        attempts: r.attempts,
        createdAt: r.createdAt.toISOString(),
        updatedAt: r.updatedAt.toISOString(),
      })),
    };
  }
}

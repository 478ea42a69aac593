import { Controller, Inject, Injectable } from '@nestjs/common';
import { asc, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { Events, Rpc } from '@digicard/contracts';
import type { Database } from '@digicard/db';
import type { Transaction } from '@digicard/messaging';
import { DATABASE, Handles, OnEvent, type EventContext, type RpcClient, type SignedInMeta, RPC_CLIENT } from '@digicard/server';
import { CrmHandoff } from '../crm/crm-handoff.js';
import { mailLog } from '../db/schema.js';

/** The only SQL of the mail log's reads. */
@Injectable()
export class MailLogRepository {
  /** Every email sent (or tried) to an address, case-insensitively, oldest first. */
  sentTo(db: Database, address: string) {
    return db
      .select()
      .from(mailLog)
      .where(sql`lower(${mailLog.recipient}) = ${address.trim().toLowerCase()}`)
      .orderBy(asc(mailLog.createdAt));
  }

  /** Forgets every email sent (or tried) to an address, case-insensitively. */
  async forget(db: Database | Transaction, address: string): Promise<void> {
    await db.delete(mailLog).where(sql`lower(${mailLog.recipient}) = ${address.trim().toLowerCase()}`);
  }
}

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

/**
 * The mail log of the signed-in account (POPIA's right of access): what we emailed its address, when, and whether it
 * went out. The address is identity's (asked as the account itself), never taken from the request, and only once the
 * account has verified it. The emails' bodies are not kept, so only their subjects are shown.
 */
@Injectable()
export class MailLogQueries {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(RPC_CLIENT) private readonly bus: RpcClient,
    @Inject(MailLogRepository) private readonly log: MailLogRepository,
  ) {}

  async accountData(meta: SignedInMeta): Promise<Record<string, unknown>> {
    const account = await this.bus.call(Rpc.getAccount, {}, { ...meta, role: null });
    // Only an address the account proved (its verification link used): registering someone else's address unverified
    // must not show the subjects of the mail sent to it.
    const rows = account.isVerified ? await this.log.sentTo(this.db, account.email) : [];
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

@Controller()
export class MailLogController {
  constructor(@Inject(MailLogQueries) private readonly queries: MailLogQueries) {}

  @Handles(Rpc.exportMailData)
  exportData(_: object, meta: SignedInMeta) {
    return this.queries.accountData(meta);
  }
}

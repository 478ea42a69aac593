import { Injectable } from '@nestjs/common';
import { eq } from 'drizzle-orm';
import type { Database } from '@digicard/db';
import type { Transaction } from '@digicard/messaging';
import { webhookEndpoints } from '../db/schema.js';

type Executor = Database | Transaction;
export type EndpointRow = typeof webhookEndpoints.$inferSelect;

/** The SQL of the CRM webhook endpoints: one per account, its address, secret and whether it is on. */
@Injectable()
export class WebhookEndpointsRepository {
  async endpointOf(db: Executor, accountId: string): Promise<EndpointRow | null> {
    const [row] = await db.select().from(webhookEndpoints).where(eq(webhookEndpoints.accountId, accountId)).limit(1);
    return row ?? null;
  }

  /** Creates or replaces the owner's endpoint; the secret is only written when none exists yet. */
  async upsertEndpoint(
    db: Executor,
    accountId: string,
    url: string,
    enabled: boolean,
    secretIfNew: string,
    now: Date,
  ): Promise<EndpointRow> {
    const [row] = await db
      .insert(webhookEndpoints)
      .values({ accountId, url, enabled, secret: secretIfNew, disabledReason: null, createdAt: now, updatedAt: now })
      .onConflictDoUpdate({ target: webhookEndpoints.accountId, set: { url, enabled, disabledReason: null, updatedAt: now } })
      .returning();
    return row!;
  }

  async setSecret(db: Executor, accountId: string, secret: string, now: Date): Promise<EndpointRow | null> {
    const [row] = await db
      .update(webhookEndpoints)
      .set({ secret, updatedAt: now })
      .where(eq(webhookEndpoints.accountId, accountId))
      .returning();
    return row ?? null;
  }

  /** The endpoint answered 410 Gone: turned off until its owner saves it again. */
  async disableEndpoint(db: Executor, accountId: string, reason: string, now: Date): Promise<void> {
    await db
      .update(webhookEndpoints)
      .set({ enabled: false, disabledReason: reason, updatedAt: now })
      .where(eq(webhookEndpoints.accountId, accountId));
  }

  /** A deleted account: its endpoint (and secret) goes. */
  async forget(db: Executor, accountId: string): Promise<void> {
    await db.delete(webhookEndpoints).where(eq(webhookEndpoints.accountId, accountId));
  }
}

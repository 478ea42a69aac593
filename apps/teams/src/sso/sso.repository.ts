import { Injectable } from '@nestjs/common';
import { and, asc, eq, inArray, ne } from 'drizzle-orm';
import type { Database } from '@digicard/db';
import type { Transaction } from '@digicard/messaging';
import { ssoDomains, ssoProviders } from '../db/schema.js';

type Executor = Database | Transaction;
export type SsoProviderRow = typeof ssoProviders.$inferSelect;
export type SsoProviderWithDomains = SsoProviderRow & { domains: string[] };

/** The SQL of the teams' company sign-in: one provider per leader, and the email domains that route to it. */
@Injectable()
export class SsoRepository {
  async ofLeader(db: Executor, leaderId: string): Promise<SsoProviderWithDomains | null> {
    const [row] = await db.select().from(ssoProviders).where(eq(ssoProviders.leaderAccountId, leaderId)).limit(1);
    return row ? { ...row, domains: await this.domainsOf(db, leaderId) } : null;
  }

  async byTeamId(db: Executor, teamId: string): Promise<SsoProviderWithDomains | null> {
    const [row] = await db.select().from(ssoProviders).where(eq(ssoProviders.teamId, teamId)).limit(1);
    return row ? { ...row, domains: await this.domainsOf(db, row.leaderAccountId) } : null;
  }

  async byDomain(db: Executor, domain: string): Promise<SsoProviderWithDomains | null> {
    const [row] = await db
      .select({ provider: ssoProviders })
      .from(ssoDomains)
      .innerJoin(ssoProviders, eq(ssoProviders.leaderAccountId, ssoDomains.leaderAccountId))
      .where(eq(ssoDomains.domain, domain))
      .limit(1);
    return row ? { ...row.provider, domains: await this.domainsOf(db, row.provider.leaderAccountId) } : null;
  }

  /** Of these domains, the ones another team's provider serves. */
  async domainsOfOthers(db: Executor, leaderId: string, domains: string[]): Promise<string[]> {
    if (domains.length === 0) return [];
    const rows = await db
      .select({ domain: ssoDomains.domain })
      .from(ssoDomains)
      .where(and(inArray(ssoDomains.domain, domains), ne(ssoDomains.leaderAccountId, leaderId)));
    return rows.map((r) => r.domain);
  }

  /** Creates or replaces the leader's provider and its domains (the team id stays the same across saves). */
  async save(
    tx: Transaction,
    leaderId: string,
    fields: { issuer: string; clientId: string; clientSecretCiphertext: string; required: boolean },
    domains: string[],
  ): Promise<void> {
    const now = new Date();
    await tx
      .insert(ssoProviders)
      .values({ leaderAccountId: leaderId, ...fields, updatedAt: now })
      .onConflictDoUpdate({ target: ssoProviders.leaderAccountId, set: { ...fields, updatedAt: now } });
    await tx.delete(ssoDomains).where(eq(ssoDomains.leaderAccountId, leaderId));
    await tx.insert(ssoDomains).values(domains.map((domain) => ({ domain, leaderAccountId: leaderId })));
  }

  /** Removes the leader's provider (its domains go with it); false when there was none. */
  async remove(db: Executor, leaderId: string): Promise<boolean> {
    const removed = await db.delete(ssoProviders).where(eq(ssoProviders.leaderAccountId, leaderId)).returning({ id: ssoProviders.teamId });
    return removed.length > 0;
  }

  private async domainsOf(db: Executor, leaderId: string): Promise<string[]> {
    const rows = await db
      .select({ domain: ssoDomains.domain })
      .from(ssoDomains)
      .where(eq(ssoDomains.leaderAccountId, leaderId))
      .orderBy(asc(ssoDomains.domain));
    return rows.map((r) => r.domain);
  }
}

import { Injectable } from '@nestjs/common';
import { eq, inArray } from 'drizzle-orm';
import type { Database } from '@digicard/db';
import type { Transaction } from '@digicard/messaging';
import { customers } from '../db/schema.js';

type Executor = Database | Transaction;
export type CustomerRow = typeof customers.$inferSelect;

/** The SQL of the customers' projection: the names and usernames packing slips and proofs show. */
@Injectable()
export class CustomersRepository {
  async upsertCustomer(db: Executor, customer: { accountId: string; username: string; name: string }): Promise<void> {
    await db
      .insert(customers)
      .values(customer)
      .onConflictDoUpdate({
        target: customers.accountId,
        set: { username: customer.username, name: customer.name, updatedAt: new Date() },
      });
  }

  /** profile.updated carries the (possibly new) username; the name stays until the next render reads it. */
  async setCustomerUsername(tx: Transaction, accountId: string, username: string): Promise<void> {
    await tx.update(customers).set({ username, updatedAt: new Date() }).where(eq(customers.accountId, accountId));
  }

  async customersOf(db: Executor, accountIds: string[]): Promise<CustomerRow[]> {
    if (accountIds.length === 0) return [];
    return db.select().from(customers).where(inArray(customers.accountId, accountIds));
  }
}

import { Injectable } from '@nestjs/common';
import { and, eq, gt } from 'drizzle-orm';
import type { Database } from '@digicard/db';
import type { Transaction } from '@digicard/messaging';
import { applePassRegistrations, applePasses } from '../db/schema.js';

type Executor = Database | Transaction;
export type ApplePassRegistrationRow = typeof applePassRegistrations.$inferSelect;

/** The devices that hold an Apple Wallet pass (Apple's web service registers them): each one's push token, and what changed for it. */
@Injectable()
export class ApplePassRegistrationsRepository {
  /** Registers a device for a pass's pushes (or renews its push token); true when it was not registered before. */
  async register(tx: Transaction, row: { deviceLibraryIdentifier: string; serialNumber: string; pushToken: string }): Promise<boolean> {
    const [existing] = await tx
      .select({ id: applePassRegistrations.id })
      .from(applePassRegistrations)
      .where(
        and(
          eq(applePassRegistrations.deviceLibraryIdentifier, row.deviceLibraryIdentifier),
          eq(applePassRegistrations.serialNumber, row.serialNumber),
        ),
      )
      .for('update');
    if (existing) {
      await tx.update(applePassRegistrations).set({ pushToken: row.pushToken }).where(eq(applePassRegistrations.id, existing.id));
      return false;
    }
    const inserted = await tx.insert(applePassRegistrations).values(row).onConflictDoNothing().returning({ id: applePassRegistrations.id });
    return inserted.length > 0;
  }

  async unregister(db: Executor, deviceLibraryIdentifier: string, serialNumber: string): Promise<boolean> {
    const gone = await db
      .delete(applePassRegistrations)
      .where(
        and(
          eq(applePassRegistrations.deviceLibraryIdentifier, deviceLibraryIdentifier),
          eq(applePassRegistrations.serialNumber, serialNumber),
        ),
      )
      .returning({ id: applePassRegistrations.id });
    return gone.length > 0;
  }

  /** A registration APNs says is gone (the app removed, the token no longer valid). */
  async removeRegistration(db: Executor, id: string, pushToken: string): Promise<void> {
    await db.delete(applePassRegistrations).where(and(eq(applePassRegistrations.id, id), eq(applePassRegistrations.pushToken, pushToken)));
  }

  registrationsOf(db: Executor, serialNumber: string): Promise<ApplePassRegistrationRow[]> {
    return db.select().from(applePassRegistrations).where(eq(applePassRegistrations.serialNumber, serialNumber));
  }

  registrationById(db: Executor, id: string): Promise<ApplePassRegistrationRow | undefined> {
    return db
      .select()
      .from(applePassRegistrations)
      .where(eq(applePassRegistrations.id, id))
      .limit(1)
      .then((rows) => rows[0]);
  }

  /** The device's passes of this type changed after the tag (all of them without one), with their update tags. */
  updatedFor(
    db: Executor,
    deviceLibraryIdentifier: string,
    passTypeIdentifier: string,
    since: number | null,
  ): Promise<Array<{ serialNumber: string; updatedAt: number }>> {
    return db
      .select({ serialNumber: applePasses.serialNumber, updatedAt: applePasses.updatedAt })
      .from(applePassRegistrations)
      .innerJoin(applePasses, eq(applePasses.serialNumber, applePassRegistrations.serialNumber))
      .where(
        and(
          eq(applePassRegistrations.deviceLibraryIdentifier, deviceLibraryIdentifier),
          eq(applePasses.passTypeIdentifier, passTypeIdentifier),
          ...(since === null ? [] : [gt(applePasses.updatedAt, since)]),
        ),
      );
  }
}

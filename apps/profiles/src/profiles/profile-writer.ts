import { Inject, Injectable } from '@nestjs/common';
import { Events } from '@digicard/contracts';
import type { Database } from '@digicard/db';
import { recordEvent, type OutboxRelay, type Transaction } from '@digicard/messaging';
import { DATABASE, OUTBOX_RELAY, ServiceError } from '@digicard/server';
import { outbox } from '../db/schema.js';
import { ProfilesRepository, type ProfileRow } from './profiles.repository.js';

export const profileNotFound = () => ServiceError.notFound('Profile not found.');

/**
 * A business's change shows on every page that inherits it (its team's reps): each gets `profiles.profile.updated`
 * too, so gateways drop those cached pages as well.
 */
export async function announceMembers(profiles: ProfilesRepository, tx: Transaction, businessAccountId: string, at: Date): Promise<void> {
  for (const member of await profiles.membersOf(tx, businessAccountId)) {
    await recordEvent(tx, outbox, Events.profileUpdated, {
      accountId: member.accountId,
      username: member.username,
      updatedAt: at.toISOString(),
    });
  }
}

/** Reads an owner's profile and writes changes to it: every change goes out as `profiles.profile.updated`. */
@Injectable()
export class ProfileWriter {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(OUTBOX_RELAY) private readonly relay: OutboxRelay | null,
    @Inject(ProfilesRepository) private readonly profiles: ProfilesRepository,
  ) {}

  /** The owner's profile, or 404. */
  async own(accountId: string): Promise<ProfileRow> {
    const row = await this.profiles.byAccount(this.db, accountId);
    if (!row) throw profileNotFound();
    return row;
  }

  /** The business a profile shows (a team rep's leader), or null. */
  async businessOf(row: ProfileRow): Promise<ProfileRow | null> {
    return row.businessAccountId ? this.profiles.byAccount(this.db, row.businessAccountId) : null;
  }

  /**
   * Runs `work` and records `profiles.profile.updated` in the same transaction, so cached public pages are dropped
   * the moment it commits (and never when it does not).
   */
  async change(accountId: string, work: (tx: Transaction) => Promise<ProfileRow | null>): Promise<ProfileRow> {
    const row = await this.db.transaction(async (tx) => {
      const updated = await work(tx);
      if (!updated) return null;
      await recordEvent(tx, outbox, Events.profileUpdated, {
        accountId,
        username: updated.username,
        updatedAt: updated.updatedAt.toISOString(),
      });
      await announceMembers(this.profiles, tx, accountId, updated.updatedAt);
      return updated;
    });
    if (!row) throw profileNotFound();
    this.relay?.kick();
    return row;
  }
}

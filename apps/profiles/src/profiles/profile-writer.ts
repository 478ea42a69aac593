import { Inject, Injectable } from '@nestjs/common';
import { Events } from '@digicard/contracts';
import type { Database } from '@digicard/db';
import { recordEvent, type OutboxRelay, type Transaction } from '@digicard/messaging';
import { DATABASE, OUTBOX_RELAY, ServiceError } from '@digicard/server';
import { outbox } from '../db/schema.js';
import { ProfilesRepository, type ProfileRow } from './profiles.repository.js';

export const profileNotFound = () => ServiceError.notFound('Profile not found.');

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

  /**
   * Runs `work` and records `profiles.profile.updated` in the same transaction, so cached public pages are dropped
   * the moment it commits (and never when it does not).
   */
  async change(accountId: string, work: (tx: Transaction) => Promise<ProfileRow | null>): Promise<ProfileRow> {
    const row = await this.db.transaction(async (tx) => {
      const updated = await work(tx);
      if (!updated) return null;
      await recordEvent(tx, outbox, Events.profileUpdated, { accountId, username: updated.username, updatedAt: updated.updatedAt.toISOString() });
      return updated;
    });
    if (!row) throw profileNotFound();
    this.relay?.kick();
    return row;
  }
}

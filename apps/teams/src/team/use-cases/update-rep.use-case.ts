import { Inject, Injectable } from '@nestjs/common';
import { Events, TeamMessages, type Rep, type RepFields } from '@digicard/contracts';
import type { Database } from '@digicard/db';
import { recordEvent, type OutboxRelay } from '@digicard/messaging';
import { DATABASE, OUTBOX_RELAY, ServiceError, type SignedInMeta } from '@digicard/server';
import { outbox } from '../../db/schema.js';
import { IdentityClient } from '../identity.client.js';
import { MembersRepository } from '../members.repository.js';
import { toRep } from '../team.mapping.js';
import { LeaderTier } from '../leader-tier.js';

/**
 * A leader changes one of their own reps: username, names and email in identity (which tells profiles), the phone
 * here (`teams.member.updated` tells profiles). Another leader's rep, or a removed one, is not found.
 */
@Injectable()
export class UpdateRep {
  constructor(
    @Inject(LeaderTier) private readonly tier: LeaderTier,
    @Inject(DATABASE) private readonly db: Database,
    @Inject(OUTBOX_RELAY) private readonly relay: OutboxRelay | null,
    @Inject(IdentityClient) private readonly identity: IdentityClient,
    @Inject(MembersRepository) private readonly members: MembersRepository,
  ) {}

  async execute(memberId: string, fields: RepFields, meta: SignedInMeta): Promise<Rep> {
    await this.tier.assertPlatinum(meta);
    const current = await this.members.repOf(this.db, meta.userId, memberId);
    if (!current) throw ServiceError.notFound(TeamMessages.noSuchRep);
    const account = await this.identity.updateRepAccount(
      { accountId: memberId, username: fields.username, firstName: fields.firstName, lastName: fields.lastName, email: fields.email },
      meta,
    );
    const now = new Date();
    const row = await this.db.transaction(async (tx) => {
      const updated = await this.members.update(tx, memberId, {
        username: account.username,
        firstName: account.firstName,
        lastName: account.lastName,
        email: account.email,
        tel: fields.tel,
        updatedAt: now,
      });
      if (updated && updated.tel !== current.tel) {
        await recordEvent(tx, outbox, Events.teamMemberUpdated, {
          leaderAccountId: meta.userId,
          memberAccountId: memberId,
          tel: updated.tel,
          updatedAt: now.toISOString(),
        });
      }
      return updated;
    });
    if (!row) throw ServiceError.notFound(TeamMessages.noSuchRep);
    this.relay?.kick();
    return toRep(row);
  }
}

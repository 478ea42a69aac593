import { Inject, Injectable } from '@nestjs/common';
import { Events, type Rep, type RepFields } from '@digicard/contracts';
import type { Database } from '@digicard/db';
import { recordEvent, type OutboxRelay } from '@digicard/messaging';
import { DATABASE, OUTBOX_RELAY, ServiceError, type SignedInMeta } from '@digicard/server';
import { outbox } from '../../db/schema.js';
import { IdentityClient } from '../identity.client.js';
import { MembersRepository } from '../members.repository.js';
import { toRep } from '../team.mapping.js';
import { LeaderTier } from '../leader-tier.js';

export type NewRep = RepFields & { password: string };

/**
 * A leader adds reps (one from the form, or many from a CSV): identity creates their accounts (all or none, after
 * checking the leader's own password), then the links are stored with `teams.member.added` each, in one
 * transaction. The leader stays signed in throughout. With `dryRun` nothing is created: the rows are only checked.
 */
@Injectable()
export class AddReps {
  constructor(
    @Inject(LeaderTier) private readonly tier: LeaderTier,
    @Inject(DATABASE) private readonly db: Database,
    @Inject(OUTBOX_RELAY) private readonly relay: OutboxRelay | null,
    @Inject(IdentityClient) private readonly identity: IdentityClient,
    @Inject(MembersRepository) private readonly members: MembersRepository,
  ) {}

  async execute(reps: NewRep[], leaderPassword: string, dryRun: boolean, meta: SignedInMeta): Promise<Rep[] | null> {
    await this.tier.assertPlatinum(meta);
    const { accounts } = await this.identity.createRepAccounts(
      {
        leaderPassword,
        dryRun,
        reps: reps.map(({ username, firstName, lastName, email, password }) => ({ username, firstName, lastName, email, password })),
      },
      meta,
    );
    if (dryRun) return null;
    const now = new Date();
    const rows = await this.db.transaction(async (tx) => {
      const inserted = await this.members.insert(
        tx,
        accounts.map((account, i) => ({
          memberAccountId: account.accountId,
          leaderAccountId: meta.userId,
          username: account.username,
          firstName: account.firstName,
          lastName: account.lastName,
          email: account.email,
          tel: reps[i]!.tel,
          addedAt: now,
          updatedAt: now,
        })),
      );
      for (const row of inserted) {
        await recordEvent(tx, outbox, Events.teamMemberAdded, {
          leaderAccountId: row.leaderAccountId,
          memberAccountId: row.memberAccountId,
          username: row.username,
          tel: row.tel,
          addedAt: row.addedAt.toISOString(),
        });
      }
      return inserted;
    });
    this.relay?.kick();
    return rows.map(toRep);
  }

  /** The form's single rep: identity names its field errors `reps.0.<field>`; the form's fields are `<field>`. */
  async one(rep: NewRep, leaderPassword: string, meta: SignedInMeta): Promise<Rep> {
    try {
      const [added] = (await this.execute([rep], leaderPassword, false, meta)) ?? [];
      if (!added) throw new Error('no rep was added');
      return added;
    } catch (error) {
      if (error instanceof ServiceError && error.body.fieldErrors) {
        const fieldErrors = Object.fromEntries(Object.entries(error.body.fieldErrors).map(([k, v]) => [k.replace(/^reps\.0\./, ''), v]));
        throw new ServiceError({ ...error.body, fieldErrors });
      }
      throw error;
    }
  }
}

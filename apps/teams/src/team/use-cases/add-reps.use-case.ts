import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { Rep, RepFields } from '@digicard/contracts';
import type { Database } from '@digicard/db';
import { DATABASE, ServiceError, type SignedInMeta } from '@digicard/server';
import { IdentityClient } from '../identity.client.js';
import { MembersRepository } from '../members.repository.js';
import { toRep } from '../team.mapping.js';
import { LeaderTier } from '../leader-tier.js';
import { CompleteRepAdditions } from './complete-rep-additions.use-case.js';

export type NewRep = RepFields & { password: string };

/**
 * A leader adds reps (one from the form, or many from a CSV): identity creates their accounts (all or none, after
 * checking the leader's own password), then the links are stored with `teams.member.added` each, in one
 * transaction. The leader stays signed in throughout. With `dryRun` nothing is created: the rows are only checked.
 *
 * Safe against dying mid-way: the reps are recorded here as pending, with the account ids teams chose, before identity
 * is asked; recording the members takes them away. If teams or NATS dies in between (identity made the accounts, no
 * member was recorded), the sweeper finds the pending rows, asks identity which accounts exist, and records those
 * (`CompleteRepAdditions`). Identity answers a repeat of the same ids with the same accounts, never a second set.
 */
@Injectable()
export class AddReps {
  constructor(
    @Inject(LeaderTier) private readonly tier: LeaderTier,
    @Inject(DATABASE) private readonly db: Database,
    @Inject(IdentityClient) private readonly identity: IdentityClient,
    @Inject(MembersRepository) private readonly members: MembersRepository,
    @Inject(CompleteRepAdditions) private readonly complete: CompleteRepAdditions,
  ) {}

  async execute(reps: NewRep[], leaderPassword: string, dryRun: boolean, meta: SignedInMeta): Promise<Rep[] | null> {
    await this.tier.assertPlatinum(meta);
    const fields = reps.map(({ username, firstName, lastName, email, password }) => ({ username, firstName, lastName, email, password }));
    if (dryRun) {
      await this.identity.createRepAccounts({ leaderPassword, dryRun, reps: fields }, meta);
      return null;
    }
    const planned = reps.map((rep, i) => ({ ...fields[i]!, accountId: randomUUID() }));
    return this.add(reps, planned, meta, () => this.identity.createRepAccounts({ leaderPassword, dryRun, reps: planned }, meta));
  }

  /**
   * One rep sent by the team's identity provider (SCIM), whose token stands for the leader in `meta`: the same
   * addition (the tier, pending first, identity, then the member and `teams.member.added`, so the same inheritance and
   * welcome email), with no leader password and no password for the rep (they choose one from the welcome email).
   * `releaseAccountIds`: the team's removed reps whose address identity frees first (a SCIM user deleted, made again).
   */
  async provision(rep: RepFields, meta: SignedInMeta, releaseAccountIds: string[] = []): Promise<Rep> {
    await this.tier.assertPlatinum(meta);
    const planned = [
      {
        accountId: randomUUID(),
        username: rep.username,
        firstName: rep.firstName,
        lastName: rep.lastName,
        email: rep.email,
        password: '' as const,
      },
    ];
    const [added] = await this.add([{ ...rep, password: '' }], planned, meta, () =>
      this.identity.provisionRepAccounts(
        { leaderAccountId: meta.userId, reps: planned, ...(releaseAccountIds.length > 0 ? { releaseAccountIds } : {}) },
        meta,
      ),
    );
    if (!added) throw new Error('no rep was added');
    return added;
  }

  private async add(
    reps: NewRep[],
    planned: Array<{ accountId: string }>,
    meta: SignedInMeta,
    create: () => ReturnType<IdentityClient['createRepAccounts']>,
  ): Promise<Rep[]> {
    const ids = planned.map((p) => p.accountId);
    await this.members.insertPending(
      this.db,
      reps.map((rep, i) => ({
        accountId: ids[i]!,
        leaderAccountId: meta.userId,
        username: rep.username,
        firstName: rep.firstName,
        lastName: rep.lastName,
        email: rep.email,
        tel: rep.tel,
      })),
    );
    let accounts: Awaited<ReturnType<IdentityClient['createRepAccounts']>>['accounts'];
    try {
      ({ accounts } = await create());
    } catch (error) {
      // Refused by identity: nothing was made, nothing stays pending. Silence (503): identity may have made them, and
      // the sweeper finds out.
      if (error instanceof ServiceError && error.body.statusCode < 500) await this.members.dropPending(this.db, ids);
      throw error;
    }
    return (await this.complete.record(accounts)).map(toRep);
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

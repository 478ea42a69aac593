import { randomBytes, randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { AccountMessages, ErrorCode, Events, TeamMessages } from '@digicard/contracts';
import type { Database } from '@digicard/db';
import { recordEvent, type OutboxRelay } from '@digicard/messaging';
import { CONFIG, DATABASE, OUTBOX_RELAY, ServiceError, type RpcBody } from '@digicard/server';
import type { Rpc } from '@digicard/contracts';
import type { Config } from '../../config.js';
import { outbox } from '../../db/schema.js';
import { AccountErrors } from '../account.errors.js';
import { registeredEvent } from '../account.mapping.js';
import { AccountsRepository } from '../accounts.repository.js';
import { hashPassword, passwordProblem, verifyPassword } from '../passwords.js';

type Request = RpcBody<typeof Rpc.createRepAccounts>;
type Created = { accountId: string; username: string; email: string; firstName: string; lastName: string };

const DAY_MS = 24 * 3600 * 1000;

/**
 * A team leader's new reps (spec section 7, decisions.md "adding a team rep"): the leader confirms with their own
 * password once and stays signed in; the server creates each rep's account, role teamMember, verified (the leader
 * vouches for it; the rep sets a password from the welcome email). The address is not proved (`emailProvedAt` stays
 * null: a leader's word proves no mailbox) until the rep follows a link sent to it, such as the welcome email's. All rows or none: every row is checked first
 * (username and email free, also within the batch), then all are stored in one transaction.
 */
@Injectable()
export class CreateRepAccounts {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(OUTBOX_RELAY) private readonly relay: OutboxRelay | null,
    @Inject(CONFIG) private readonly config: Config,
    @Inject(AccountsRepository) private readonly accounts: AccountsRepository,
  ) {}

  async execute(leaderId: string, request: Request): Promise<{ accounts: Created[] }> {
    if (!request.leaderPassword) throw AccountErrors.field('leaderPassword', TeamMessages.passwordRequired);
    const leader = await this.leader(leaderId);
    if (!(await verifyPassword(leader.passwordHash, request.leaderPassword))) throw AccountErrors.wrongPassword();
    return this.create(request);
  }

  /**
   * A rep provisioned by the team's identity provider (SCIM): the teams service checked the team's token, which
   * stands for the leader, so no leader password is asked; the rest is as above (one rep, no password of the
   * leader's choosing: the welcome email lets the rep choose one, or they sign in with their company account).
   */
  async provision(request: RpcBody<typeof Rpc.provisionRepAccounts>): Promise<{ accounts: Created[] }> {
    await this.leader(request.leaderAccountId);
    // The team's provider deleted this user before (teams names the removed reps): the address is free again at once.
    // Their username stays held for the grace period (their old card's address), so the new account gets another.
    for (const accountId of request.releaseAccountIds ?? [])
      for (const rep of request.reps) await this.accounts.releaseRemovedRepEmail(this.db, accountId, rep.email);
    return this.create({ leaderPassword: '', dryRun: false, reps: request.reps });
  }

  private async leader(leaderId: string) {
    const leader = await this.accounts.findById(this.db, leaderId);
    if (!leader || leader.disabledAt) throw AccountErrors.accountNotFound();
    if (leader.role !== 'teamLeader') throw ServiceError.forbidden('You are not allowed to do that.');
    return leader;
  }

  private async create(request: Request): Promise<{ accounts: Created[] }> {
    const replayed = await this.replay(request);
    if (replayed) return replayed;

    const cutoff = new Date(Date.now() - this.config.REMOVED_REP_GRACE_DAYS * DAY_MS);
    const fieldErrors: Record<string, string[]> = {};
    const seenNames = new Set<string>();
    const seenEmails = new Set<string>();
    for (const [i, rep] of request.reps.entries()) {
      const email = rep.email.trim().toLowerCase();
      const weak = rep.password ? passwordProblem(rep.password, rep) : null;
      if (weak) fieldErrors[`reps.${i}.password`] = [weak];
      if (!request.dryRun) await this.accounts.releaseExpired(this.db, rep.username, email, cutoff);
      const nameHolder = await this.accounts.findByUsername(this.db, rep.username);
      if (seenNames.has(rep.username) || (nameHolder && !(nameHolder.disabledAt && nameHolder.disabledAt < cutoff))) {
        fieldErrors[`reps.${i}.username`] = [AccountMessages.usernameTaken];
      }
      const emailHolder = await this.accounts.findByEmail(this.db, email);
      if (seenEmails.has(email) || (emailHolder && !(emailHolder.disabledAt && emailHolder.disabledAt < cutoff))) {
        fieldErrors[`reps.${i}.email`] = ['An account with this email already exists.'];
      }
      seenNames.add(rep.username);
      seenEmails.add(email);
    }
    if (Object.keys(fieldErrors).length > 0) {
      throw new ServiceError({
        statusCode: 400,
        code: ErrorCode.ValidationFailed,
        message: 'Please correct the highlighted fields.',
        fieldErrors,
      });
    }
    const planned = request.reps.map((rep) => ({ ...rep, accountId: rep.accountId ?? randomUUID() }));
    if (request.dryRun)
      return {
        accounts: planned.map(({ accountId, username, email, firstName, lastName }) => ({
          accountId,
          username,
          email,
          firstName,
          lastName,
        })),
      };

    // Without a password of the leader's choosing, a random one nobody knows: the rep chooses theirs from the email.
    const hashes = await Promise.all(planned.map((rep) => hashPassword(rep.password || randomBytes(24).toString('base64url'))));
    const now = new Date();
    const rows = await this.db.transaction(async (tx) => {
      // (A race with another sign-up for the same name fails the whole transaction: nothing is half-created.)
      const stored = [];
      for (const [i, rep] of planned.entries()) {
        const row = await this.accounts.insert(tx, {
          id: rep.accountId,
          username: rep.username,
          email: rep.email.trim(),
          emailNormalized: rep.email.trim().toLowerCase(),
          firstName: rep.firstName,
          lastName: rep.lastName,
          passwordHash: hashes[i]!,
          role: 'teamMember',
          isVerified: true,
          verifiedAt: now,
        });
        await recordEvent(tx, outbox, Events.userRegistered, registeredEvent(row));
        await recordEvent(tx, outbox, Events.userVerified, { accountId: row.id, verifiedAt: now.toISOString() });
        stored.push(row);
      }
      return stored;
    });
    this.relay?.kick();
    return { accounts: rows.map(toCreated) };
  }

  /**
   * The same request again (teams retries with the account ids it recorded as pending, when the first answer was
   * lost): the accounts it made, never a second set. Ids naming other accounts are refused.
   */
  private async replay(request: Request): Promise<{ accounts: Created[] } | null> {
    const ids = request.reps.map((r) => r.accountId).filter((id): id is string => !!id);
    if (ids.length === 0) return null;
    const existing = await this.accounts.findRepsByIds(this.db, ids);
    const taken = await Promise.all(ids.map((id) => this.accounts.findById(this.db, id)));
    if (existing.length === 0 && taken.every((t) => !t)) return null;
    const byId = new Map(existing.map((row) => [row.id, row]));
    const same = ids.length === request.reps.length && request.reps.every((r) => byId.get(r.accountId!)?.username === r.username);
    if (!same) throw new ServiceError({ statusCode: 409, code: ErrorCode.Conflict, message: 'These accounts already exist.' });
    return { accounts: request.reps.map((r) => toCreated(byId.get(r.accountId!)!)) };
  }
}

const toCreated = (r: { id: string; username: string; email: string; firstName: string; lastName: string }): Created => ({
  accountId: r.id,
  username: r.username,
  email: r.email,
  firstName: r.firstName,
  lastName: r.lastName,
});

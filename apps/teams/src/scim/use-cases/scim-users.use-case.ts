import { randomUUID, timingSafeEqual } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { z } from 'zod';
import {
  Events,
  ScimMessages,
  ScimRequestError,
  applyScimPatch,
  type RequestMeta,
  type ScimCallSchema,
  type ScimFilter,
  type ScimUserFields,
  type ScimUserRecord,
} from '@digicard/contracts';
import type { Logger } from '@digicard/config';
import type { Database } from '@digicard/db';
import { recordEvent, type OutboxRelay } from '@digicard/messaging';
import { DATABASE, LOGGER, OUTBOX_RELAY, ServiceError, type SignedInMeta } from '@digicard/server';
import { outbox } from '../../db/schema.js';
import { IdentityClient } from '../../team/identity.client.js';
import { MembersRepository, type MemberRow } from '../../team/members.repository.js';
import { AddReps } from '../../team/use-cases/add-reps.use-case.js';
import { RemoveRep } from '../../team/use-cases/remove-rep.use-case.js';
import { UpdateRep } from '../../team/use-cases/update-rep.use-case.js';
import { fromRequestError, outcomeOf, scimFailure, toScimRecord, usernameFor } from '../scim.mapping.js';
import { ScimRepository } from '../scim.repository.js';

type Call = z.infer<typeof ScimCallSchema>;
type Done<T> = { value: T; status: number; outcome: string; member?: MemberRow | null; userName?: string | null };
export type UserResult = { user: ScimUserRecord; signedOut: boolean };

/**
 * The SCIM service's calls in the teams service (issue 27 item 2). The gateway sends the SHA-256 of the bearer token;
 * the team is the leader whose token has that hash (401 for none), and every call is done as that leader does it in
 * the Teams section (`AddReps.provision`, `UpdateRep`, `RemoveRep`: the tier, the inheritance, the welcome email, the
 * events), then written to the team's audit list with its outcome. Another team's user is not found (404).
 */
@Injectable()
export class ScimUsers {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(OUTBOX_RELAY) private readonly relay: OutboxRelay | null,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(ScimRepository) private readonly scim: ScimRepository,
    @Inject(MembersRepository) private readonly members: MembersRepository,
    @Inject(IdentityClient) private readonly identity: IdentityClient,
    @Inject(AddReps) private readonly addReps: AddReps,
    @Inject(UpdateRep) private readonly updateRep: UpdateRep,
    @Inject(RemoveRep) private readonly removeRep: RemoveRep,
  ) {}

  create(tokenHash: string, call: Call, fields: ScimUserFields, meta: RequestMeta): Promise<UserResult> {
    return this.audited(tokenHash, call, meta, async (leader) => {
      if (await this.scim.repByUserName(this.db, leader.userId, fields.userName))
        throw scimFailure(409, ScimMessages.userNameTaken, 'uniqueness');
      const rep = await this.provision(fields, leader);
      const made = await this.members.asMember(this.db, rep.accountId);
      if (!made) throw new Error('the provisioned rep was not recorded');
      let row = await this.keepScimFields(made, { externalId: fields.externalId, title: fields.title });
      if (!row) throw new Error('the provisioned rep was not recorded');
      if (!fields.active) row = await this.suspend(row, leader);
      return { value: { user: toScimRecord(row), signedOut: false }, status: 201, outcome: 'created', member: row };
    });
  }

  get(tokenHash: string, call: Call, id: string, meta: RequestMeta): Promise<UserResult> {
    return this.audited(tokenHash, call, meta, async (leader) => {
      const row = await this.repOf(leader, id);
      return { value: { user: toScimRecord(row), signedOut: false }, status: 200, outcome: 'read', member: row };
    });
  }

  list(
    tokenHash: string,
    call: Call,
    query: { filter: ScimFilter | null; startIndex: number; count: number },
    meta: RequestMeta,
  ): Promise<{ totalResults: number; users: ScimUserRecord[] }> {
    return this.audited(tokenHash, call, meta, async (leader) => {
      const { total, rows } = await this.scim.repsPage(this.db, leader.userId, query.filter, query.startIndex - 1, query.count);
      return {
        value: { totalResults: total, users: rows.map(toScimRecord) },
        status: 200,
        outcome: 'listed',
        userName: query.filter?.attribute === 'userName' ? query.filter.value.toLowerCase() : null,
      };
    });
  }

  replace(tokenHash: string, call: Call, id: string, fields: ScimUserFields, meta: RequestMeta): Promise<UserResult> {
    return this.audited(tokenHash, call, meta, async (leader) => this.change(leader, await this.repOf(leader, id), fields, 'replaced'));
  }

  patch(tokenHash: string, call: Call, id: string, operations: unknown, meta: RequestMeta): Promise<UserResult> {
    return this.audited(tokenHash, call, meta, async (leader) => {
      const row = await this.repOf(leader, id);
      const current = toScimRecord(row);
      let fields: ScimUserFields;
      try {
        fields = applyScimPatch(current, operations);
      } catch (error) {
        if (error instanceof ScimRequestError) throw fromRequestError(error);
        throw error;
      }
      return this.change(leader, row, fields, 'patched');
    });
  }

  delete(tokenHash: string, call: Call, id: string, meta: RequestMeta): Promise<UserResult> {
    return this.audited(tokenHash, call, meta, async (leader) => {
      const row = await this.repOf(leader, id);
      await this.removeRep.execute(row.memberAccountId, leader);
      const removed = (await this.members.asMember(this.db, row.memberAccountId)) ?? row;
      return { value: { user: toScimRecord(removed), signedOut: true }, status: 204, outcome: 'deleted', member: removed };
    });
  }

  /** A call the gateway refused before asking (a bad filter, body or JSON): recorded, and 401 for an unknown token. */
  refused(tokenHash: string, call: Call, status: number, outcome: string, meta: RequestMeta): Promise<{ recorded: true }> {
    return this.audited(tokenHash, call, meta, () => Promise.resolve({ value: { recorded: true as const }, status, outcome }));
  }

  /** The team a token hash stands for, as the leader's meta; 401 for a hash no team has. */
  private async leaderOf(tokenHash: string, meta: RequestMeta): Promise<SignedInMeta> {
    const row = await this.scim.useToken(this.db, tokenHash, new Date());
    // The row was found by its hash; compared again in constant time all the same (nothing here leaks by timing).
    if (!row || !timingSafeEqual(Buffer.from(row.tokenHash), Buffer.from(tokenHash))) throw scimFailure(401, ScimMessages.badToken);
    return { requestId: meta.requestId, userId: row.leaderAccountId, role: 'teamLeader', ip: null };
  }

  private async audited<T>(tokenHash: string, call: Call, meta: RequestMeta, work: (leader: SignedInMeta) => Promise<Done<T>>): Promise<T> {
    const leader = await this.leaderOf(tokenHash, meta);
    const entry = { id: randomUUID(), leaderAccountId: leader.userId, method: call.method, path: call.path, at: new Date() };
    try {
      const done = await work(leader);
      await this.scim.record(this.db, {
        ...entry,
        status: done.status,
        outcome: done.outcome,
        memberAccountId: done.member?.memberAccountId ?? null,
        userName: done.member ? done.member.email.toLowerCase() : (done.userName ?? null),
      });
      return done.value;
    } catch (error) {
      const refusal = error instanceof ServiceError ? error : null;
      const userId = /\/Users\/([0-9a-f-]{36})$/i.exec(call.path)?.[1] ?? null;
      const member = userId ? await this.members.repOf(this.db, leader.userId, userId).catch(() => null) : null;
      await this.scim
        .record(this.db, {
          ...entry,
          status: refusal?.body.statusCode ?? 500,
          outcome: refusal ? outcomeOf(refusal) : 'failed',
          memberAccountId: member?.memberAccountId ?? null,
          userName: member ? member.email.toLowerCase() : null,
        })
        .catch((auditError: unknown) => this.logger.error({ err: auditError }, 'SCIM call not written to the audit list'));
      throw error;
    }
  }

  private async repOf(leader: SignedInMeta, id: string): Promise<MemberRow> {
    const row = await this.members.repOf(this.db, leader.userId, id);
    if (!row) throw scimFailure(404, ScimMessages.noSuchUser);
    return row;
  }

  /** A rep as the Teams section adds one, with a username made from the userName (another one if it is taken). */
  private async provision(fields: ScimUserFields, leader: SignedInMeta) {
    // RFC 7644 section 3.6: a deleted user is not considered for uniqueness, so Entra ID's and Okta's delete, then
    // create again, of the same userName works within the removed rep's grace period too.
    const released = await this.scim.removedRepIds(this.db, leader.userId, fields.userName);
    for (let attempt = 0; ; attempt++) {
      const rep = {
        username: usernameFor(fields.userName, attempt),
        firstName: fields.givenName,
        lastName: fields.familyName,
        email: fields.userName,
        tel: fields.tel,
      };
      try {
        return await this.addReps.provision(rep, leader, released);
      } catch (error) {
        const fieldErrors = error instanceof ServiceError ? (error.body.fieldErrors ?? {}) : {};
        if (fieldErrors['reps.0.email']) throw scimFailure(409, ScimMessages.userNameTaken, 'uniqueness');
        if (fieldErrors['reps.0.username'] && attempt < 3) continue;
        throw asScim(error);
      }
    }
  }

  /** PUT and PATCH: the rep's fields through `UpdateRep` (as the Teams section), then the SCIM-only fields and `active`. */
  private async change(leader: SignedInMeta, row: MemberRow, fields: ScimUserFields, outcome: string): Promise<Done<UserResult>> {
    const current = toScimRecord(row);
    const rename =
      current.userName !== fields.userName ||
      current.givenName !== fields.givenName ||
      current.familyName !== fields.familyName ||
      current.tel !== fields.tel;
    if (rename) {
      try {
        await this.updateRep.execute(
          row.memberAccountId,
          { username: row.username, firstName: fields.givenName, lastName: fields.familyName, email: fields.userName, tel: fields.tel },
          leader,
        );
      } catch (error) {
        const fieldErrors = error instanceof ServiceError ? (error.body.fieldErrors ?? {}) : {};
        if (fieldErrors['email']) throw scimFailure(409, ScimMessages.userNameTaken, 'uniqueness');
        throw asScim(error);
      }
    }
    let updated = await this.keepScimFields((await this.members.asMember(this.db, row.memberAccountId)) ?? row, {
      externalId: fields.externalId,
      title: fields.title,
      updatedAt: new Date(),
    });
    if (!updated) throw scimFailure(404, ScimMessages.noSuchUser);
    let signedOut = false;
    if (!fields.active && updated.suspendedAt === null) {
      updated = await this.suspend(updated, leader);
      signedOut = true;
      outcome = 'deactivated';
    } else if (fields.active && updated.suspendedAt !== null) {
      updated = await this.reinstate(updated, leader);
      outcome = 'reactivated';
    }
    return { value: { user: toScimRecord(updated), signedOut }, status: 200, outcome, member: updated };
  }

  /**
   * The SCIM-only fields; a job title other than the one kept goes to the rep's card (`teams.member.updated` with the
   * title, as the leader's phone does), in the same transaction.
   */
  private async keepScimFields(
    row: MemberRow,
    values: { externalId: string | null; title: string | null; updatedAt?: Date },
  ): Promise<MemberRow | null> {
    const title = values.title?.trim().slice(0, 120) || null;
    const changed = title !== (row.title ?? null);
    const updated = await this.db.transaction(async (tx) => {
      const kept = await this.scim.setScimFields(tx, row.memberAccountId, { ...values, title });
      if (kept && changed)
        await recordEvent(tx, outbox, Events.teamMemberUpdated, {
          leaderAccountId: kept.leaderAccountId,
          memberAccountId: kept.memberAccountId,
          tel: kept.tel,
          title: title ?? '',
          updatedAt: new Date().toISOString(),
        });
      return kept;
    });
    if (changed) this.relay?.kick();
    return updated;
  }

  /** Deactivated: identity refuses every sign-in, profiles hides the page (`teams.member.suspended`). */
  private async suspend(row: MemberRow, leader: SignedInMeta): Promise<MemberRow> {
    await this.identity.disableRepAccount(row.memberAccountId, leader);
    const now = new Date();
    const updated = await this.db.transaction(async (tx) => {
      const changed = await this.scim.setScimFields(tx, row.memberAccountId, { suspendedAt: now, updatedAt: now });
      await recordEvent(tx, outbox, Events.teamMemberSuspended, {
        leaderAccountId: row.leaderAccountId,
        memberAccountId: row.memberAccountId,
        suspendedAt: now.toISOString(),
      });
      return changed;
    });
    this.relay?.kick();
    return updated ?? row;
  }

  /** Reactivated: identity lets the rep sign in again, profiles shows the page (`teams.member.reinstated`). */
  private async reinstate(row: MemberRow, leader: SignedInMeta): Promise<MemberRow> {
    try {
      await this.identity.enableRepAccount(row.memberAccountId, leader);
    } catch (error) {
      throw asScim(error);
    }
    const now = new Date();
    const updated = await this.db.transaction(async (tx) => {
      const changed = await this.scim.setScimFields(tx, row.memberAccountId, { suspendedAt: null, updatedAt: now });
      await recordEvent(tx, outbox, Events.teamMemberReinstated, {
        leaderAccountId: row.leaderAccountId,
        memberAccountId: row.memberAccountId,
        reinstatedAt: now.toISOString(),
      });
      return changed;
    });
    this.relay?.kick();
    return updated ?? row;
  }
}

/** Another service's refusal as SCIM says it: field errors are an invalid value, a conflict is uniqueness. */
function asScim(error: unknown): unknown {
  if (!(error instanceof ServiceError) || error.body.fieldErrors?.['scimType']) return error;
  const { statusCode, message, fieldErrors } = error.body;
  if (statusCode === 400) {
    const first = fieldErrors ? Object.entries(fieldErrors)[0] : undefined;
    const detail = first ? `${first[0].replace(/^reps\.0\./, '')}: ${first[1][0] ?? message}` : message;
    return scimFailure(400, detail, 'invalidValue');
  }
  if (statusCode === 409) return scimFailure(409, message, 'uniqueness');
  return error;
}

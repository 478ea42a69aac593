import { boolean, index, integer, pgSchema, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { messagingTables } from '@digicard/messaging';

/** The teams service's schema: nobody else reads it. */
export const schema = pgSchema('teams');
export const { outbox, processedMessages } = messagingTables(schema);

/**
 * Who leads whom: one row per rep, with the fields the leader manages (a copy of identity's username, names and
 * email, kept as the leader last set them, and the rep's phone). A removed rep's row stays, marked, for the record.
 */
export const members = schema.table(
  'members',
  {
    memberAccountId: uuid('member_account_id').primaryKey(),
    leaderAccountId: uuid('leader_account_id').notNull(),
    username: text('username').notNull(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    email: text('email').notNull(),
    tel: text('tel').notNull(),
    addedAt: timestamp('added_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    removedAt: timestamp('removed_at', { withTimezone: true, mode: 'date' }),
    /** Deactivated by the team's identity provider (SCIM `active: false`): still a rep, but signed out and hidden. */
    suspendedAt: timestamp('suspended_at', { withTimezone: true, mode: 'date' }),
    /** The identity provider's own id for the rep (SCIM `externalId`), as it sent it. */
    externalId: text('external_id'),
    /** The rep's job title as the identity provider sends it (SCIM `title`). */
    title: text('title'),
  },
  (t) => [index('members_leader_idx').on(t.leaderAccountId, t.addedAt)],
);

/**
 * Reps being added: recorded (with the account ids teams chose) before identity is asked to create the accounts, and
 * taken away in the transaction that records the members. A row left behind means the addition was cut short (teams
 * or NATS died between the two): the sweeper asks identity which of these accounts exist, and records them as members
 * (or drops the row when identity never made the account). No password is kept here.
 */
export const pendingReps = schema.table(
  'pending_reps',
  {
    accountId: uuid('account_id').primaryKey(),
    leaderAccountId: uuid('leader_account_id').notNull(),
    username: text('username').notNull(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    email: text('email').notNull(),
    tel: text('tel').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('pending_reps_created_idx').on(t.createdAt)],
);

/**
 * A leader's company sign-in (single sign-on with OpenID Connect), one per team. `team_id` is the team's public id
 * (its sign-in link, `/login?team=<id>`), so the leader's account id is never shown. The client secret is kept only as
 * the gateway's AES-256-GCM ciphertext: this service never holds the key (docs/decisions/0012-single-sign-on-in-the-gateway.md).
 */
export const ssoProviders = schema.table('sso_providers', {
  leaderAccountId: uuid('leader_account_id').primaryKey(),
  teamId: uuid('team_id').notNull().unique().defaultRandom(),
  issuer: text('issuer').notNull(),
  clientId: text('client_id').notNull(),
  clientSecretCiphertext: text('client_secret_ciphertext').notNull(),
  required: boolean('required').notNull().default(false),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

/** The email domains that route to a team's provider: each domain to one team only. */
export const ssoDomains = schema.table(
  'sso_domains',
  {
    domain: text('domain').primaryKey(),
    leaderAccountId: uuid('leader_account_id')
      .notNull()
      .references(() => ssoProviders.leaderAccountId, { onDelete: 'cascade' }),
  },
  (t) => [index('sso_domains_leader_idx').on(t.leaderAccountId)],
);

/**
 * A team's SCIM token (one per team): only its SHA-256 is kept, so a dump of this table provisions nobody. The
 * gateway hashes the bearer token of every SCIM call and asks by the hash (docs/decisions/0014-scim-provisioning.md).
 */
export const scimTokens = schema.table('scim_tokens', {
  leaderAccountId: uuid('leader_account_id').primaryKey(),
  tokenHash: text('token_hash').notNull().unique(),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  lastUsedAt: timestamp('last_used_at', { withTimezone: true, mode: 'date' }),
});

/**
 * Every SCIM call made with a team's token, for the leader to read: never the token, never the query string. Kept
 * `SCIM_AUDIT_RETENTION_DAYS` (90), then deleted by `ScimAuditPrune`.
 */
export const scimAudit = schema.table(
  'scim_audit',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    leaderAccountId: uuid('leader_account_id').notNull(),
    at: timestamp('at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    method: text('method').notNull(),
    path: text('path').notNull(),
    status: integer('status').notNull(),
    outcome: text('outcome').notNull(),
    memberAccountId: uuid('member_account_id'),
    userName: text('user_name'),
  },
  (t) => [index('scim_audit_leader_idx').on(t.leaderAccountId, t.at, t.id), index('scim_audit_at_idx').on(t.at)],
);

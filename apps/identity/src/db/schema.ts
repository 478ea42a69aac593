import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgSchema, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { Roles } from '@digicard/contracts';
import { messagingTables } from '@digicard/messaging';

/** The identity service's schema: accounts, credentials, roles, and single-use email tokens. */
export const schema = pgSchema('identity');
export const { outbox, processedMessages } = messagingTables(schema);

/** The roles of the contract; staff accounts are made by a command, never by sign-up. */
export const role = schema.enum('role', Roles);
export const tokenPurpose = schema.enum('token_purpose', ['verify-email', 'reset-password', 'change-email']);

export const accounts = schema.table(
  'accounts',
  {
    id: uuid('id').primaryKey(),
    username: text('username').notNull(),
    email: text('email').notNull(),
    /** Lower-cased email: unique, so emails are unique whatever their case. */
    emailNormalized: text('email_normalized').notNull(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    passwordHash: text('password_hash').notNull(),
    role: role('role').notNull().default('user'),
    isVerified: boolean('is_verified').notNull().default(false),
    verifiedAt: timestamp('verified_at', { withTimezone: true, mode: 'date' }),
    /**
     * When the owner proved the current `email` is theirs by following a link sent to it (verification, password reset
     * or a rep's welcome, email change). Null until then: a rep's address typed by their leader, an account made by the
     * staff command, an address a leader changed. Data other services keep under an email address (enquiries, the mail
     * log) is the account's only while this is set (docs/security.md).
     */
    emailProvedAt: timestamp('email_proved_at', { withTimezone: true, mode: 'date' }),
    passwordChangedAt: timestamp('password_changed_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    /** A team rep removed by their leader: cannot sign in; username and email freed after the grace period. */
    disabledAt: timestamp('disabled_at', { withTimezone: true, mode: 'date' }),
    /** A new email the owner asked for (confirmed by their password): it becomes `email` when its link is used. */
    pendingEmail: text('pending_email'),
    pendingEmailAt: timestamp('pending_email_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [uniqueIndex('accounts_username_idx').on(t.username), uniqueIndex('accounts_email_idx').on(t.emailNormalized)],
);

/** Single-use tokens for email links. Only their SHA-256 is stored; the token itself exists only in the email. */
export const emailTokens = schema.table(
  'email_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    purpose: tokenPurpose('purpose').notNull(),
    tokenHash: text('token_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true, mode: 'date' }),
    /** A change-email token: the address it was sent to (and will confirm). */
    newEmail: text('new_email'),
    /**
     * The address the link was sent to (the account's email when it was issued, or the new address of a change):
     * following it proves that address only, never one the account has moved to since. Null for links issued before
     * it was recorded.
     */
    sentTo: text('sent_to'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('email_tokens_hash_idx').on(t.tokenHash),
    index('email_tokens_account_idx')
      .on(t.accountId, t.purpose)
      .where(sql`used_at IS NULL`),
  ],
);

/**
 * Every change staff make to an account here (its role): who, when, what, the value before and after. Kept when the
 * account is deleted (it holds no personal data beyond the ids).
 */
export const staffAudit = schema.table(
  'staff_audit',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id').notNull(),
    staffAccountId: uuid('staff_account_id').notNull(),
    change: text('change').$type<'role'>().notNull(),
    before: jsonb('before'),
    after: jsonb('after'),
    at: timestamp('at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('staff_audit_account_idx').on(t.accountId, t.at)],
);

/**
 * What payments last said of each account's tier (`payments.membership.changed`) and its version: a DigiPlatinum
 * subscription makes its owner a team leader, and losing it takes the role away (docs/subsystems.md "Teams"). An
 * older version than the one kept is ignored, whatever order the events arrive in.
 */
export const memberships = schema.table('memberships', {
  accountId: uuid('account_id').primaryKey(),
  membership: text('membership').notNull(),
  version: integer('version').notNull(),
  changedAt: timestamp('changed_at', { withTimezone: true, mode: 'date' }).notNull(),
});

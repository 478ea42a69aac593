import { index, pgSchema, text, timestamp, uuid } from 'drizzle-orm/pg-core';
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

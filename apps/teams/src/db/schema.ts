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

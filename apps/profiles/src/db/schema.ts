import { boolean, jsonb, pgSchema, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import type { ProfileDocument } from '@digicard/contracts';
import { messagingTables } from '@digicard/messaging';

/** The profiles service's schema: each owner's profile document, and what it keeps of the owner's account. */
export const schema = pgSchema('profiles');
export const { outbox, processedMessages } = messagingTables(schema);

export const profiles = schema.table(
  'profiles',
  {
    accountId: uuid('account_id').primaryKey(),
    username: text('username').notNull(),
    email: text('email').notNull(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    role: text('role').notNull(),
    /** Projection of the owner's tier; the payments service will publish changes. */
    membership: text('membership').notNull().default('DigiShare'),
    isVerified: boolean('is_verified').notNull().default(false),
    isPublic: boolean('is_public').notNull().default(true),
    document: jsonb('document').$type<ProfileDocument>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('profiles_username_idx').on(t.username)],
);

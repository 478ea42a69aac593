import { pgSchema } from 'drizzle-orm/pg-core';
import { messagingTables } from '@digicard/messaging';

/** The profiles service's schema: nobody else reads it. */
export const schema = pgSchema('profiles');
export const { outbox, processedMessages } = messagingTables(schema);

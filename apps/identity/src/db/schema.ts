import { pgSchema } from 'drizzle-orm/pg-core';
import { messagingTables } from '@digicard/messaging';

/** The identity service's schema: nobody else reads it. */
export const schema = pgSchema('identity');
export const { outbox, processedMessages } = messagingTables(schema);

import { pgSchema } from 'drizzle-orm/pg-core';
import { messagingTables } from '@digicard/messaging';

/** The teams service's schema: nobody else reads it. */
export const schema = pgSchema('teams');
export const { outbox, processedMessages } = messagingTables(schema);

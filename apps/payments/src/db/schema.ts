import { pgSchema } from 'drizzle-orm/pg-core';
import { messagingTables } from '@digicard/messaging';

/** The payments service's schema: nobody else reads it. */
export const schema = pgSchema('payments');
export const { outbox, processedMessages } = messagingTables(schema);

import { eq } from 'drizzle-orm';
import { Events, ProfileDefaults, streamFor } from '@digicard/contracts';
import { durableName, handleOnce, recordEvent, startEventConsumer, type RunningConsumer } from '@digicard/messaging';
import type { ServiceContext } from '@digicard/server';
import type { Config } from '../config.js';
import { leads, media, outbox, processedMessages, profileViews, profiles, vanityPaths } from '../db/schema.js';

/**
 * Keeps profiles in step with accounts: a registered account gets its profile document with the product's
 * defaults; a verified one is marked so (an unverified profile is not shared publicly).
 */
export async function startAccountEventConsumers(ctx: ServiceContext<Config>): Promise<RunningConsumer[]> {
  const registered = durableName('profiles', Events.userRegistered.subject);
  const verified = durableName('profiles', Events.userVerified.subject);
  const deleted = durableName('profiles', Events.userDeleted.subject);
  return [
    await startEventConsumer(
      ctx.js,
      ctx.jsm,
      {
        stream: streamFor('identity').name,
        durable: registered,
        event: Events.userRegistered,
        handle: async ({ id, data }) => {
          await handleOnce(ctx.db, processedMessages, registered, id, async (tx) => {
            await tx
              .insert(profiles)
              .values({
                accountId: data.accountId,
                username: data.username,
                email: data.email,
                firstName: data.firstName,
                lastName: data.lastName,
                role: data.role,
                document: { ...ProfileDefaults },
              })
              .onConflictDoNothing();
          });
        },
      },
      ctx.logger,
    ),
    await startEventConsumer(
      ctx.js,
      ctx.jsm,
      {
        stream: streamFor('identity').name,
        durable: verified,
        event: Events.userVerified,
        handle: async ({ id, data }) => {
          await handleOnce(ctx.db, processedMessages, verified, id, async (tx) => {
            await tx.update(profiles).set({ isVerified: true, updatedAt: new Date(data.verifiedAt) }).where(eq(profiles.accountId, data.accountId));
          });
        },
      },
      ctx.logger,
    ),
    await startEventConsumer(
      ctx.js,
      ctx.jsm,
      {
        stream: streamFor('identity').name,
        durable: deleted,
        event: Events.userDeleted,
        // The owner asked to be forgotten (POPIA): the profile, its images, leads, views and paths go.
        handle: async ({ id, data }) => {
          await handleOnce(ctx.db, processedMessages, deleted, id, async (tx) => {
            for (const table of [media, leads, profileViews, vanityPaths]) await tx.delete(table).where(eq(table.accountId, data.accountId));
            const [gone] = await tx.delete(profiles).where(eq(profiles.accountId, data.accountId)).returning({ username: profiles.username });
            // Gateways drop the cached page at once.
            if (gone) await recordEvent(tx, outbox, Events.profileDeleted, { accountId: data.accountId, username: gone.username });
          });
          ctx.relay?.kick();
        },
      },
      ctx.logger,
    ),
  ];
}

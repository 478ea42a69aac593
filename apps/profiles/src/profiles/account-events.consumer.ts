import { eq } from 'drizzle-orm';
import { Events, ProfileDefaults } from '@digicard/contracts';
import { recordEvent } from '@digicard/messaging';
import { consumeEventOnce, type ServiceContext } from '@digicard/server';
import type { Config } from '../config.js';
import { leads, media, outbox, processedMessages, profileViews, profiles, vanityPaths } from '../db/schema.js';

/**
 * Keeps profiles in step with accounts: a registered account gets its profile document with the product's
 * defaults; a verified one is marked so (an unverified profile is not shared publicly); a deleted one is forgotten.
 */
export async function startAccountEventConsumers(ctx: ServiceContext<Config>): Promise<void> {
  await consumeEventOnce(ctx, processedMessages, Events.userRegistered, async (tx, data) => {
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

  await consumeEventOnce(ctx, processedMessages, Events.userVerified, async (tx, data) => {
    await tx.update(profiles).set({ isVerified: true, updatedAt: new Date(data.verifiedAt) }).where(eq(profiles.accountId, data.accountId));
  });

  // The owner asked to be forgotten (POPIA): the profile, its images, leads, views and paths go.
  await consumeEventOnce(ctx, processedMessages, Events.userDeleted, async (tx, data) => {
    for (const table of [media, leads, profileViews, vanityPaths]) await tx.delete(table).where(eq(table.accountId, data.accountId));
    const [gone] = await tx.delete(profiles).where(eq(profiles.accountId, data.accountId)).returning({ username: profiles.username });
    // Gateways drop the cached page at once.
    if (gone) await recordEvent(tx, outbox, Events.profileDeleted, { accountId: data.accountId, username: gone.username });
  });
}

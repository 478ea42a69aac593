import { Inject, Injectable } from '@nestjs/common';
import type { z } from 'zod';
import { ErrorCode, SsoMessages, type StoreSsoSettingsSchema, type StoredSsoSettingsSchema } from '@digicard/contracts';
import type { Database } from '@digicard/db';
import { DATABASE, ServiceError, type SignedInMeta } from '@digicard/server';
import { LeaderTier } from '../../team/leader-tier.js';
import { toStoredSettings } from '../sso.mapping.js';
import { SsoRepository } from '../sso.repository.js';

const fieldError = (fieldErrors: Record<string, string[]>) =>
  new ServiceError({ statusCode: 400, code: ErrorCode.ValidationFailed, message: 'Please correct the highlighted fields.', fieldErrors });

/** PostgreSQL's unique violation: a domain another team saved between the check and the insert. */
const isUniqueViolation = (error: unknown): boolean =>
  typeof error === 'object' &&
  error !== null &&
  ((error as { code?: string }).code === '23505' || isUniqueViolation((error as { cause?: unknown }).cause));

/**
 * A leader saves the team's company sign-in. The secret arrives as the gateway's ciphertext (null keeps the stored
 * one; the first save needs one); each email domain may route to one team only.
 */
@Injectable()
export class SaveSsoSettings {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(SsoRepository) private readonly sso: SsoRepository,
    @Inject(LeaderTier) private readonly tier: LeaderTier,
  ) {}

  async execute(settings: z.infer<typeof StoreSsoSettingsSchema>, meta: SignedInMeta): Promise<z.infer<typeof StoredSsoSettingsSchema>> {
    await this.tier.assertPlatinum(meta);
    const existing = await this.sso.ofLeader(this.db, meta.userId);
    const clientSecretCiphertext = settings.clientSecretCiphertext ?? existing?.clientSecretCiphertext;
    if (!clientSecretCiphertext) throw fieldError({ clientSecret: [SsoMessages.clientSecretRequired] });
    const domainsTaken = (taken: string[]) =>
      fieldError(
        Object.fromEntries(settings.domains.flatMap((d, i) => (taken.includes(d) ? [[`domains.${i}`, [SsoMessages.domainTaken]]] : []))),
      );
    const taken = await this.sso.domainsOfOthers(this.db, meta.userId, settings.domains);
    if (taken.length > 0) throw domainsTaken(taken);
    try {
      await this.db.transaction((tx) =>
        this.sso.save(
          tx,
          meta.userId,
          { issuer: settings.issuer, clientId: settings.clientId, clientSecretCiphertext, required: settings.required },
          settings.domains,
        ),
      );
    } catch (error) {
      if (isUniqueViolation(error)) throw domainsTaken(await this.sso.domainsOfOthers(this.db, meta.userId, settings.domains));
      throw error;
    }
    return toStoredSettings(await this.sso.ofLeader(this.db, meta.userId));
  }
}

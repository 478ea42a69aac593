import type { z } from 'zod';
import type { SsoProviderSchema, StoredSsoSettingsSchema } from '@digicard/contracts';
import type { SsoProviderWithDomains } from './sso.repository.js';

type StoredSsoSettings = z.infer<typeof StoredSsoSettingsSchema>;

/** The settings as the leader's Teams section reads them: whether a secret is stored, never the ciphertext. */
export function toStoredSettings(row: SsoProviderWithDomains | null): StoredSsoSettings {
  if (!row) return { teamId: null, issuer: '', clientId: '', hasClientSecret: false, domains: [], required: false };
  return {
    teamId: row.teamId,
    issuer: row.issuer,
    clientId: row.clientId,
    hasClientSecret: row.clientSecretCiphertext.length > 0,
    domains: row.domains,
    required: row.required,
  };
}

/** The provider as the gateway's flow needs it. */
export function toProvider(row: SsoProviderWithDomains): z.infer<typeof SsoProviderSchema> {
  return {
    teamId: row.teamId,
    issuer: row.issuer,
    clientId: row.clientId,
    clientSecretCiphertext: row.clientSecretCiphertext,
    domains: row.domains,
  };
}

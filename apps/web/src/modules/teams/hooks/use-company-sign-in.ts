import type { ScimSettings, SsoSettings } from '@digicard/contracts';
import { useApiMutation } from '../../api/use-api-mutation';
import { useOwnerData } from '../../api/use-owner-data';
import { issueScimToken, revokeScimToken } from '../api/scim';
import { fetchSsoSettings, removeSsoSettings, saveSsoSettings } from '../api/sso';
import { TeamQueries } from './use-team';

/** The company sign-in settings' query (a save or removal shows what the server answered). */
export const SSO_QUERY = ['sso-settings'] as const;

export const useSsoSettings = () =>
  useOwnerData<SsoSettings>(SSO_QUERY, fetchSsoSettings, 'Your company sign-in settings could not be loaded.');

/** A save answers the settings as they are now: shown at once. */
export const useSaveSso = () => useApiMutation(saveSsoSettings, (saved, client) => client.setQueryData(SSO_QUERY, saved));

/** Once removed, the team has no company sign-in: nothing of the provider is shown any more. */
export const useRemoveSso = () =>
  useApiMutation(
    () => removeSsoSettings(),
    (_data, client) =>
      client.setQueryData<SsoSettings>(SSO_QUERY, (shown) =>
        shown
          ? { ...shown, configured: false, teamId: null, issuer: '', clientId: '', hasClientSecret: false, domains: [], required: false }
          : shown,
      ),
  );

/** A new SCIM token: the settings it answered are shown at once (the token itself only by the section, this once). */
export const useIssueScimToken = () =>
  useApiMutation(
    () => issueScimToken(),
    ({ token: _token, ...settings }, client) => client.setQueryData<ScimSettings>(TeamQueries.scim, settings),
  );

/** Once revoked, no token is set. */
export const useRevokeScimToken = () =>
  useApiMutation(
    () => revokeScimToken(),
    (_data, client) =>
      client.setQueryData<ScimSettings>(TeamQueries.scim, (shown) =>
        shown ? { ...shown, configured: false, createdAt: null, lastUsedAt: null } : shown,
      ),
  );

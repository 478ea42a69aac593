import type { AnalyticsRange, Rep, RepFields, TeamAnalyticsReport } from '@digicard/contracts';
import type { QueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useApiMutation } from '../../api/use-api-mutation';
import { useOwnerPages } from '../../api/use-owner-pages';
import { addRep, fetchTeam, fetchTeamAnalytics, importReps, removeRep, updateRep } from '../api/teams';

export const TEAM_FAILED_MESSAGE = 'Your team could not be loaded.';
export const TEAM_ANALYTICS_FAILED_MESSAGE = 'We could not load your team’s numbers. Please try again in a minute.';

/** The leader's queries: every change of the team reads both again (a new rep shows in the list and in the numbers). */
export const TeamQueries = {
  all: ['team'],
  reps: ['team', 'reps'],
  /** Every rep, page after page (whom a leader's card can be given to, in Orders). */
  everyRep: ['team', 'every-rep'],
  analytics: (range: AnalyticsRange) => ['team', 'analytics', range.from ?? '', range.to ?? ''],
  analyticsAll: ['team', 'analytics'],
  /** SCIM provisioning: the token's state and the provider's calls. */
  scim: ['team', 'scim'],
  scimAudit: ['team', 'scim', 'audit'],
} as const;

const teamChanged = (_data: unknown, client: QueryClient) => void client.invalidateQueries({ queryKey: TeamQueries.all });

/** The leader's reps, a page at a time. */
export const useTeamReps = () => useOwnerPages<'reps', Rep>(TeamQueries.reps, 'reps', fetchTeam, TEAM_FAILED_MESSAGE);

/** The leader view's numbers for a range (the last 30 days without one), a page of reps at a time ("Load more reps’ numbers"). */
export function useTeamAnalytics(range: AnalyticsRange) {
  const { from, to } = range;
  const load = useCallback((cursor: string | null) => fetchTeamAnalytics({ from, to }, cursor), [from, to]);
  return useOwnerPages<'reps', TeamAnalyticsReport['reps'][number], TeamAnalyticsReport>(
    TeamQueries.analytics({ from, to }),
    'reps',
    load,
    TEAM_ANALYTICS_FAILED_MESSAGE,
  );
}

export const useAddRep = () => useApiMutation(addRep, teamChanged);
export const useUpdateRep = () =>
  useApiMutation(({ accountId, fields }: { accountId: string; fields: RepFields }) => updateRep(accountId, fields), teamChanged);
/**
 * A rep deleted: the numbers are read again from "Loading...", not shown meanwhile (what they showed still lists the
 * rep; the gateway answers with the reps teams has now), and the rest of the team is read again.
 */
const repRemoved = (_data: unknown, client: QueryClient) => {
  void client.resetQueries({ queryKey: TeamQueries.analyticsAll });
  void client.invalidateQueries({ queryKey: TeamQueries.all, predicate: (query) => query.queryKey[1] !== TeamQueries.analyticsAll[1] });
};
export const useRemoveRep = () => useApiMutation(removeRep, repRemoved);
/** The CSV import: a dry run (the preview's check) changes nothing; adding the rows does. */
export const useImportReps = () =>
  useApiMutation(importReps, (data, client, request) => {
    if (!request.dryRun) teamChanged(data, client);
  });

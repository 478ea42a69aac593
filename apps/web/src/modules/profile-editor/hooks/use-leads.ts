import type { Lead } from '@digicard/contracts';
import { useOwnerData } from '../../api/use-owner-data';
import { fetchLeads } from '../api/profile';

export const LEADS_FAILED_MESSAGE = 'We could not load your leads. Please try again in a minute.';

/** The owner's leads (GET /api/profile/leads), read each time the Leads section opens. */
export const useLeads = () => useOwnerData<{ leads: Lead[] }>(fetchLeads, LEADS_FAILED_MESSAGE);

import type { Lead } from '@digicard/contracts';
import { useOwnerPages } from '../../api/use-owner-pages';
import { fetchLeads } from '../api/profile';

export const LEADS_FAILED_MESSAGE = 'We could not load your leads. Please try again in a minute.';

/** The owner's leads (GET /api/profile/leads), read each time the Leads section opens, a page at a time. */
export const useLeads = () => useOwnerPages<'leads', Lead>(['leads'], 'leads', fetchLeads, LEADS_FAILED_MESSAGE);

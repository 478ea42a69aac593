import type { Lead } from '@digicard/contracts';
import { useEffect, useState } from 'react';
import { refreshSession } from '../../session/utils/session-actions';
import { fetchLeads } from '../api/profile';

export const LEADS_FAILED_MESSAGE = 'We could not load your leads. Please try again in a minute.';

export type LeadsState = { status: 'loading' } | { status: 'failed'; message: string } | { status: 'loaded'; leads: Lead[] };

/** The owner's leads (GET /api/profile/leads), read each time the Leads section opens; `retry` reads them again. */
export function useLeads(): { state: LeadsState; retry: () => void } {
  const [state, setState] = useState<LeadsState>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    let current = true;
    void fetchLeads().then((result) => {
      if (!current) return;
      if (result.ok) setState({ status: 'loaded', leads: result.data.leads });
      else {
        if (result.error.statusCode === 401) void refreshSession();
        setState({ status: 'failed', message: result.error.statusCode === 0 ? result.error.message : LEADS_FAILED_MESSAGE });
      }
    });
    return () => {
      current = false;
    };
  }, [attempt]);
  const retry = () => {
    setState({ status: 'loading' });
    setAttempt((count) => count + 1);
  };
  return { state, retry };
}

import { useEffect, useState, type ReactNode } from 'react';
import { SessionContext } from '../hooks/use-session';
import { loadSessionOnce } from '../utils/session-actions';
import { sessionStore } from '../utils/session-store';

/**
 * Loads GET /api/session once on start and hands the session to `useSession()`. The session lives in a module
 * store (the fetch helper reads its CSRF token); this mirrors it into ordinary React state, so that a session change
 * and the navigation it causes (the router makes no transitions, see app.tsx) render together: signing out on the
 * dashboard goes home without the dashboard's own redirect to /login getting in first.
 */
export function SessionProvider({ children }: { children: ReactNode }) {
  const [session, setSessionState] = useState(sessionStore.get);

  useEffect(() => {
    const unsubscribe = sessionStore.subscribe(setSessionState);
    void loadSessionOnce();
    return unsubscribe;
  }, []);

  return <SessionContext value={session}>{children}</SessionContext>;
}

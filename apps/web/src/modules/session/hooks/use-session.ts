import type { SessionResponse } from '@digicard/contracts';
import { createContext, use } from 'react';
import { refreshSession, setSession, signOut } from '../utils/session-actions';
import { sessionStore, type SessionState } from '../utils/session-store';

export const SessionContext = createContext<SessionState>(sessionStore.get());

export interface Session extends SessionState {
  /** Reads GET /api/session again. */
  refresh: () => Promise<void>;
  /** Stores the session a login, registration or password reset answered with. */
  setSession: (response: SessionResponse) => void;
  /** Signs out on the server and forgets local profile data; false when the server could not be told. */
  signOut: () => Promise<boolean>;
}

/** The signed-in user (or none), the session's loading state and the actions that change it. */
export function useSession(): Session {
  const state = use(SessionContext);
  return { ...state, refresh: refreshSession, setSession, signOut };
}

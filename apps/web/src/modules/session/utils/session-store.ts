import type { SessionResponse, SessionUser } from '@digicard/contracts';

export type SessionStatus = 'loading' | 'signed-in' | 'signed-out';

export interface SessionState {
  readonly status: SessionStatus;
  readonly user: SessionUser | null;
  /** Sent back as the `x-csrf-token` header on every state-changing request (see `modules/api/http.ts`). */
  readonly csrfToken: string | null;
}

type Listener = (state: SessionState) => void;

/**
 * Who is signed in, held outside React so that the fetch helper can read the CSRF token of the latest session
 * answer synchronously. `SessionProvider` mirrors it into React state; components read it through `useSession()`.
 * `version` counts the changes, so that an answer to an older request never overwrites a newer session.
 */
let state: SessionState = { status: 'loading', user: null, csrfToken: null };
let version = 0;
const listeners = new Set<Listener>();
let markLoaded: () => void = () => undefined;
const loaded = new Promise<void>((resolve) => {
  markLoaded = resolve;
});

function set(next: SessionState): void {
  state = next;
  version += 1;
  if (next.status !== 'loading') markLoaded();
  for (const listener of listeners) listener(next);
}

export const sessionStore = {
  get: (): SessionState => state,
  version: (): number => version,
  /** Settles once the first session answer is in (or is known not to come): the CSRF token is known from then on. */
  loaded: (): Promise<void> => loaded,
  subscribe(listener: Listener): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  /** Takes the server's answer (GET /api/session, login, register, password reset) as the whole truth. */
  setFromResponse(response: SessionResponse): void {
    set({
      status: response.user ? 'signed-in' : 'signed-out',
      user: response.user,
      csrfToken: response.csrfToken,
    });
  },
  setSignedOut(): void {
    set({ status: 'signed-out', user: null, csrfToken: null });
  },
};

/** The token of the last session answer, or null when there is none (signed out, or not loaded yet). */
export function currentCsrfToken(): string | null {
  return state.csrfToken;
}

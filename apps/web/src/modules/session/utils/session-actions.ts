import { SessionResponseSchema, type SessionResponse } from '@digicard/contracts';
import { takeEarlySession } from './early-session';
import { fetchSession, logOut } from '../api/session';
import { sessionStore } from './session-store';

/** The browser-storage key the product has always kept the profile under; removed on sign-out (spec section 3). */
export const USER_DATA_STORAGE_KEY = 'userData';

let initialLoad: Promise<void> | null = null;

/**
 * Reads the session once per page load (the provider calls it; React's StrictMode double effects share it). On a
 * rendered marketing page the first-load script has asked already: its answer is used, and only when it had none
 * (an error, no connection) does the app ask again.
 */
export function loadSessionOnce(): Promise<void> {
  initialLoad ??= loadInitialSession();
  return initialLoad;
}

async function loadInitialSession(): Promise<void> {
  const early = takeEarlySession();
  if (early) {
    const versionBefore = sessionStore.version();
    const answer = SessionResponseSchema.safeParse(await early.catch(() => null));
    if (sessionStore.version() !== versionBefore) return; // a newer answer (e.g. a login) arrived meanwhile
    if (answer.success) {
      sessionStore.setFromResponse(answer.data);
      return;
    }
  }
  await refreshSession();
}

/**
 * Reads GET /api/session again (after verifying the email, say). When no answer arrives, a session that is still
 * loading counts as signed out (the pages stay usable) and a known session is kept as it is.
 */
export async function refreshSession(): Promise<void> {
  const versionBefore = sessionStore.version();
  const result = await fetchSession();
  if (sessionStore.version() !== versionBefore) return; // a newer answer (e.g. a login) arrived meanwhile
  if (result.ok) sessionStore.setFromResponse(result.data);
  else if (sessionStore.get().status === 'loading') sessionStore.setSignedOut();
}

/** After the account is gone: forget the local profile data and the session (the server already ended it). */
export function forgetDeletedAccount(): void {
  try {
    localStorage.removeItem(USER_DATA_STORAGE_KEY);
  } catch {
    // Storage can be unavailable; nothing to remove then.
  }
  sessionStore.setSignedOut();
}

/** Stores the session a login, registration or password reset answered with. */
export function setSession(response: SessionResponse): void {
  sessionStore.setFromResponse(response);
}

/** Shown when the server could not be told to end the session (the user is then still signed in there). */
export const SIGN_OUT_FAILED_MESSAGE = 'We could not sign you out. Please check your connection and try again.';

/**
 * DELETE /api/session, then forgets the local profile data and the session. Returns false when the server could
 * not be told (the user is then still signed in there, so the app keeps showing them signed in).
 */
export async function signOut(): Promise<boolean> {
  const result = await logOut();
  // A 403 makes the fetch helper read the session again; when it says signed out, that is what we wanted.
  const signedOut = result.ok || sessionStore.get().status === 'signed-out' || result.error.statusCode === 401;
  if (!signedOut) return false;
  try {
    localStorage.removeItem(USER_DATA_STORAGE_KEY);
  } catch {
    // Storage can be unavailable (private mode, blocked cookies); there is nothing to remove then.
  }
  sessionStore.setSignedOut();
  return true;
}

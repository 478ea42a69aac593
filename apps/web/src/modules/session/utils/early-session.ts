/**
 * The answer to GET /api/session that the first-load script (boot.ts) asked for on a rendered marketing page, handed
 * to the app when it starts so that it does not ask again. Kept apart from the rest of the session code: boot.ts
 * imports this module alone, and it stays a few lines in the first-load script.
 */
let early: Promise<unknown> | null = null;

/** boot.ts: the session's JSON (or null when the answer was not 200). */
export function shareEarlySession(answer: Promise<unknown>): void {
  early = answer;
}

/** The app, once: what boot.ts fetched, or null when it fetched nothing (the app then asks itself). */
export function takeEarlySession(): Promise<unknown> | null {
  const answer = early;
  early = null;
  return answer;
}

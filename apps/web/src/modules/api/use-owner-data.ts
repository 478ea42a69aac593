import type { ApiError } from '@digicard/contracts';
import { useCallback, useEffect, useState } from 'react';
import { refreshSession } from '../session/utils/session-actions';

export type Loaded<T> = { status: 'loading' } | { status: 'failed'; message: string } | { status: 'loaded'; value: T };

type Load<T> = () => Promise<{ ok: true; data: T } | { ok: false; error: ApiError }>;

/**
 * Something of the signed-in owner (leads, billing, orders), read each time the section that shows it opens.
 * `retry` reads it again; `replace` shows what a change answered with (`update`: a change of what is shown now). A 401 means the session ended: it is read
 * again, so the page shows the signed-out state. A network failure says so; any other failure says `failedMessage`.
 */
export function useOwnerData<T>(
  load: Load<T>,
  failedMessage: string,
): { state: Loaded<T>; retry: () => void; refresh: () => void; replace: (value: T) => void; update: (change: (value: T) => T) => void } {
  const [state, setState] = useState<Loaded<T>>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);
  // Reads again without showing "Loading" meanwhile (a log that changes in the background).
  const refresh = useCallback(() => setAttempt((count) => count + 1), []);
  useEffect(() => {
    let current = true;
    void load().then((result) => {
      if (!current) return;
      if (result.ok) setState({ status: 'loaded', value: result.data });
      else {
        if (result.error.statusCode === 401) void refreshSession();
        setState({ status: 'failed', message: result.error.statusCode === 0 ? result.error.message : failedMessage });
      }
    });
    return () => {
      current = false;
    };
  }, [attempt, load, failedMessage]);
  return {
    state,
    retry: () => {
      setState({ status: 'loading' });
      setAttempt((count) => count + 1);
    },
    refresh,
    replace: (value: T) => setState({ status: 'loaded', value }),
    // A change of what is shown now (a page appended), whatever else changed meanwhile; nothing while not loaded.
    update: (change: (value: T) => T) =>
      setState((current) => (current.status === 'loaded' ? { status: 'loaded', value: change(current.value) } : current)),
  };
}

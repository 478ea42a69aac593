import type { ApiError } from '@digicard/contracts';
import { confirm, FormAlert, Notice, type ConfirmOptions } from '@digicard/ui';
import { useCallback, useState } from 'react';
import type { HttpResult } from './http';

export interface ActionRun<T> {
  /** Asked first, in the spec's words (the one confirm dialog): nothing is sent unless the person agrees. */
  readonly confirm?: ConfirmOptions | null;
  /** The change (a `useApiMutation`'s `mutateAsync`, which brings the queries it changed up to date). */
  readonly send: () => Promise<HttpResult<T>>;
  /** What a refusal says (a form may put it on its fields first and answer what is left, or null). */
  readonly failed: (error: ApiError) => string | null;
  /** What a success says (the success notice); `''` for none. */
  readonly done: (data: T) => string;
}

export interface Action {
  /** While a change is on its way: the buttons that start one are disabled. */
  readonly pending: boolean;
  /** What the last change said when it succeeded ('' when there is nothing to say). */
  readonly message: string;
  /** What the last change said when it was refused. */
  readonly failure: string | null;
  /** Forgets what the last change said (a form that is about to check its fields). */
  readonly clear: () => void;
  /** Asks (when `confirm` is given), sends, and keeps what came back; resolves whether it succeeded. */
  readonly run: <T>(action: ActionRun<T>) => Promise<boolean>;
}

/**
 * The state of a section's buttons that change something on the server (make a token, revoke it, remove a setting,
 * rotate a secret): one change at a time, asked first where the spec asks, its outcome kept for `ActionOutcome`.
 */
export function useAction(): Action {
  const [pending, setPending] = useState(false);
  const [message, setMessage] = useState('');
  const [failure, setFailure] = useState<string | null>(null);
  const clear = useCallback(() => {
    setMessage('');
    setFailure(null);
  }, []);
  const run = useCallback(async <T,>(action: ActionRun<T>): Promise<boolean> => {
    if (action.confirm && !(await confirm(action.confirm))) return false;
    setPending(true);
    setFailure(null);
    setMessage('');
    const result = await action.send();
    setPending(false);
    if (!result.ok) {
      setFailure(action.failed(result.error));
      return false;
    }
    setMessage(action.done(result.data));
    return true;
  }, []);
  return { pending, message, failure, clear, run };
}

/** What the last change of `useAction` said: a success notice (a status, read out), or the refusal's alert. */
export function ActionOutcome({ action }: { action: Pick<Action, 'message' | 'failure'> }) {
  return (
    <>
      {action.message ? (
        <Notice tone="success" role="status">
          {action.message}
        </Notice>
      ) : null}
      <FormAlert>{action.failure}</FormAlert>
    </>
  );
}

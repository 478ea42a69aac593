import { useId, type ReactNode } from 'react';
import { classNames } from './class-names.js';

export interface FieldOwnProps {
  /** The visible label; also the control's accessible name. */
  label: string;
  /** Error text shown under the control; marks it aria-invalid and describes it. */
  error?: string | undefined;
  /** Help text shown between the label and the control; describes it. */
  hint?: string | undefined;
}

interface FieldIds {
  controlId: string;
  describedBy: string | undefined;
}

/** Ids of the control, its hint and its error, and the aria-describedby value that links them. */
export function useFieldIds(
  id: string | undefined,
  { error, hint }: Pick<FieldOwnProps, 'error' | 'hint'>,
  extraDescribedBy: string | undefined,
): FieldIds & { hintId: string; errorId: string } {
  const generated = useId();
  const controlId = id ?? generated;
  const hintId = `${controlId}-hint`;
  const errorId = `${controlId}-error`;
  const describedBy = [hint ? hintId : null, error ? errorId : null, extraDescribedBy].filter(Boolean).join(' ');
  return { controlId, hintId, errorId, describedBy: describedBy || undefined };
}

interface FieldShellProps extends FieldOwnProps {
  controlId: string;
  hintId: string;
  errorId: string;
  className?: string | undefined;
  children: ReactNode;
}

/** Label, hint, control and error, in that order. Classes: `ui-field`, `ui-field--invalid`, `ui-field__*`. */
export function FieldShell({ label, hint, error, controlId, hintId, errorId, className, children }: FieldShellProps) {
  return (
    <div className={classNames('ui-field', error && 'ui-field--invalid', className)}>
      <label className="ui-field__label" htmlFor={controlId}>
        {label}
      </label>
      {hint ? (
        <p id={hintId} className="ui-field__hint">
          {hint}
        </p>
      ) : null}
      {children}
      {error ? (
        <p id={errorId} className="ui-field__error">
          {error}
        </p>
      ) : null}
    </div>
  );
}

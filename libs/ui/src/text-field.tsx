import type { ComponentPropsWithRef } from 'react';
import { FieldShell, useFieldIds, type FieldOwnProps } from './field.js';

export interface TextFieldProps extends ComponentPropsWithRef<'input'>, FieldOwnProps {
  /** Class of the wrapping `ui-field` element (the input itself is `ui-field__control`). */
  className?: string;
}

/** A labelled `<input>` (type text unless told) with optional hint and error text. */
export function TextField({ label, error, hint, id, className, type = 'text', ...inputProps }: TextFieldProps) {
  const { controlId, hintId, errorId, describedBy } = useFieldIds(id, { error, hint }, inputProps['aria-describedby']);
  return (
    <FieldShell {...{ label, error, hint, controlId, hintId, errorId, className }}>
      <input
        {...inputProps}
        id={controlId}
        type={type}
        className="ui-field__control"
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
      />
    </FieldShell>
  );
}

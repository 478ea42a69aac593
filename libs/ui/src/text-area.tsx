import type { ComponentPropsWithRef } from 'react';
import { FieldShell, useFieldIds, type FieldOwnProps } from './field.js';

export interface TextAreaProps extends ComponentPropsWithRef<'textarea'>, FieldOwnProps {
  /** Class of the wrapping `ui-field` element (the textarea is `ui-field__control ui-field__control--multiline`). */
  className?: string;
}

/** A labelled `<textarea>` with optional hint and error text. */
export function TextArea({ label, error, hint, id, className, rows = 5, ...textAreaProps }: TextAreaProps) {
  const { controlId, hintId, errorId, describedBy } = useFieldIds(id, { error, hint }, textAreaProps['aria-describedby']);
  return (
    <FieldShell {...{ label, error, hint, controlId, hintId, errorId, className }}>
      <textarea
        {...textAreaProps}
        id={controlId}
        rows={rows}
        className="ui-field__control ui-field__control--multiline"
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
      />
    </FieldShell>
  );
}

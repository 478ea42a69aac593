import type { ReactNode } from 'react';
import { classNames } from './class-names.js';

export interface FormAlertProps {
  /** The message; nothing is rendered when it is empty. */
  children?: ReactNode;
  className?: string;
}

/** A form-level error, announced by screen readers (`role="alert"`). Class: `ui-form-alert`. */
export function FormAlert({ children, className }: FormAlertProps) {
  if (children === null || children === undefined || children === false || children === '') return null;
  return (
    <div role="alert" className={classNames('ui-form-alert', className)}>
      {children}
    </div>
  );
}

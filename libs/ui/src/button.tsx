import type { ComponentPropsWithRef } from 'react';
import { classNames } from './class-names.js';

export type ButtonVariant = 'primary' | 'secondary';

export interface ButtonProps extends ComponentPropsWithRef<'button'> {
  /** `primary` (default) is the filled call to action; `secondary` is outlined. */
  variant?: ButtonVariant;
}

/** A native `<button>`, `type="button"` unless told otherwise. Classes: `ui-button ui-button--{variant}`. */
export function Button({ variant = 'primary', type = 'button', className, ...props }: ButtonProps) {
  return <button {...props} type={type} className={classNames('ui-button', `ui-button--${variant}`, className)} />;
}

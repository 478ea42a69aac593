import type { ComponentPropsWithRef } from 'react';
import { classNames } from './class-names.js';

export type VisuallyHiddenProps = ComponentPropsWithRef<'span'>;

/**
 * Text for screen readers only: it stays in the accessibility tree (and in an element's accessible name) but takes
 * no room on screen, e.g. "Normal price:" before a struck-through amount. Class: `ui-visually-hidden`.
 */
export function VisuallyHidden({ className, ...props }: VisuallyHiddenProps) {
  return <span {...props} className={classNames('ui-visually-hidden', className)} />;
}

import type { ComponentPropsWithRef } from 'react';
import { classNames } from './class-names.js';

export type ContainerProps = ComponentPropsWithRef<'div'>;

/** Centres its content with a maximum width and side padding. Class: `ui-container`. */
export function Container({ className, ...props }: ContainerProps) {
  return <div {...props} className={classNames('ui-container', className)} />;
}

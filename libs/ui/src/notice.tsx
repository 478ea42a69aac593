import type { ComponentPropsWithRef } from 'react';
import { classNames } from './class-names.js';

export type NoticeTone = 'info' | 'success' | 'warning';

export interface NoticeProps extends ComponentPropsWithRef<'div'> {
  /** `info` (default), `success` (something worked) or `warning` (something needs the user's attention). */
  tone?: NoticeTone;
}

/**
 * A boxed message that is not an error of a form: a confirmation, a banner, a result. Pass `role="status"` when it
 * appears in answer to an action (screen readers announce it politely), and `role="alert"` for a failure.
 * Classes: `ui-notice ui-notice--{tone}`.
 */
export function Notice({ tone = 'info', className, ...props }: NoticeProps) {
  return <div {...props} className={classNames('ui-notice', `ui-notice--${tone}`, className)} />;
}

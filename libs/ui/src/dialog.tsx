import { useEffect, useId, useRef, useSyncExternalStore, type KeyboardEvent } from 'react';
import { Button } from './button.js';

/**
 * The app's replacement for `window.alert` and `window.confirm`: a modal alert dialog drawn in the page, so that it
 * carries the page's styles, is read by screen readers as a dialog named by its title, and can be driven by tests
 * through its buttons' names. Call `notice()` or `confirm()` from anywhere (a handler, a hook, a plain function);
 * the one `<DialogHost />` mounted near the top of the app shows them one at a time, in the order asked.
 */

export interface NoticeOptions {
  /** The dialog's title, its accessible name (the spec's alert text, usually). */
  title: string;
  /** More text under the title (a server's message, for instance); line breaks are kept. */
  message?: string;
  /** The button that closes it: "OK" unless given. */
  okLabel?: string;
}

export interface ConfirmOptions {
  /** The question, the dialog's accessible name. */
  title: string;
  message?: string;
  /** The button that says yes, named by what it does ("Delete rep", "Cancel membership"): a bare "OK" under a
   * question that itself says "cancel" is ambiguous next to Cancel. */
  confirmLabel: string;
  /** The button that says no (Escape does the same): "Cancel" unless given. */
  cancelLabel?: string;
}

interface OpenDialog {
  readonly key: number;
  readonly kind: 'notice' | 'confirm';
  readonly title: string;
  readonly message?: string;
  readonly confirmLabel: string;
  readonly cancelLabel: string;
  /** What had the focus when the dialog was asked for; it gets it back when the dialog closes. */
  readonly opener: Element | null;
  readonly settle: (answer: boolean) => void;
}

let queue: readonly OpenDialog[] = [];
let nextKey = 1;
let hosts = 0;
const listeners = new Set<() => void>();

function publish(next: readonly OpenDialog[]): void {
  queue = next;
  for (const listener of listeners) listener();
}

function open(kind: OpenDialog['kind'], options: Omit<OpenDialog, 'key' | 'kind' | 'opener' | 'settle'>): Promise<boolean> {
  if (hosts === 0) return Promise.reject(new Error('No <DialogHost /> is mounted to show the dialog.'));
  return new Promise((resolve) => {
    const key = nextKey++;
    // Asked while another dialog is open, the focus is in that dialog (which will be gone): this one returns it to
    // where the first of them took it from.
    const opener = queue.at(-1)?.opener ?? (typeof document === 'undefined' ? null : document.activeElement);
    let settled = false;
    const settle = (answer: boolean) => {
      if (settled) return;
      settled = true;
      publish(queue.filter((d) => d.key !== key));
      // The next dialog in the queue (if any) takes the focus itself; else the focus goes back where it was.
      if (queue.length === 0 && opener instanceof HTMLElement && opener.isConnected) opener.focus();
      resolve(answer);
    };
    publish([...queue, { ...options, key, kind, opener, settle }]);
  });
}

/** Shows a message with one button (OK); settles when it is closed (the button or Escape). */
export async function notice(options: NoticeOptions): Promise<void> {
  await open('notice', { title: options.title, message: options.message, confirmLabel: options.okLabel ?? 'OK', cancelLabel: '' });
}

/** Asks a question; settles with true for the confirm button, false for Cancel or Escape. */
export function confirm(options: ConfirmOptions): Promise<boolean> {
  return open('confirm', {
    title: options.title,
    message: options.message,
    confirmLabel: options.confirmLabel,
    cancelLabel: options.cancelLabel ?? 'Cancel',
  });
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const current = () => queue;
const none = (): readonly OpenDialog[] => [];

/**
 * Draws the first dialog asked for, if any (nothing otherwise, so the server's rendering of a page and the
 * browser's first one agree). Mount it once, inside the app's root.
 */
export function DialogHost() {
  useEffect(() => {
    hosts += 1;
    return () => {
      hosts -= 1;
    };
  }, []);
  const dialogs = useSyncExternalStore(subscribe, current, none);
  const first = dialogs[0];
  return first ? <AlertDialog key={first.key} dialog={first} /> : null;
}

export interface AlertDialogViewProps {
  kind: 'notice' | 'confirm';
  title: string;
  message?: string;
  confirmLabel: string;
  cancelLabel: string;
  onAnswer: (answer: boolean) => void;
}

function AlertDialog({ dialog }: { dialog: OpenDialog }) {
  // The queue entry's key stays out of the spread (React keys are not props); the host keys this element by it.
  const { kind, title, message, confirmLabel, cancelLabel, settle } = dialog;
  return (
    <AlertDialogView kind={kind} title={title} message={message} confirmLabel={confirmLabel} cancelLabel={cancelLabel} onAnswer={settle} />
  );
}

const FOCUSABLE = 'button:not([disabled]), [href], input:not([disabled]), select, textarea, [tabindex]:not([tabindex="-1"])';

/**
 * The dialog itself: a native `<dialog>` opened with `showModal()` (the rest of the page becomes inert), with
 * role `alertdialog`, `aria-modal`, named by its title and described by its message. The focus starts on the
 * safe button (Cancel for a question, OK for a notice) and Tab cycles within; Escape answers no.
 * Classes: `ui-dialog`, `ui-dialog__title`, `ui-dialog__message`, `ui-dialog__actions`.
 */
export function AlertDialogView({ kind, title, message, confirmLabel, cancelLabel, onAnswer }: AlertDialogViewProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const safe = useRef<HTMLButtonElement>(null);
  const id = useId();
  const titleId = `${id}-title`;
  const messageId = `${id}-message`;

  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    if (!element.open) element.showModal();
    safe.current?.focus();
    return () => {
      if (element.open) element.close();
    };
  }, []);

  // Closed here, while it is still in the page: the rest of the page is no longer inert, so the focus can go back
  // to the opener (the host then removes the element).
  const answer = (yes: boolean) => {
    if (ref.current?.open) ref.current.close();
    onAnswer(yes);
  };

  const trapTab = (event: KeyboardEvent<HTMLDialogElement>) => {
    if (event.key !== 'Tab' || !ref.current) return;
    const focusable = [...ref.current.querySelectorAll<HTMLElement>(FOCUSABLE)];
    const first = focusable[0];
    const last = focusable[focusable.length - 1];
    if (!first || !last) return;
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  };

  return (
    <dialog
      ref={ref}
      className="ui-dialog"
      role="alertdialog"
      aria-modal="true"
      aria-labelledby={titleId}
      aria-describedby={message ? messageId : undefined}
      onKeyDown={trapTab}
      onCancel={(event) => {
        // Escape: the dialog is closed by its answer (and the host), not by the browser.
        event.preventDefault();
        answer(false);
      }}
    >
      <h2 id={titleId} className="ui-dialog__title">
        {title}
      </h2>
      {message ? (
        <p id={messageId} className="ui-dialog__message">
          {message}
        </p>
      ) : null}
      <div className="ui-dialog__actions">
        {kind === 'confirm' ? (
          <>
            <Button ref={safe} variant="secondary" onClick={() => answer(false)}>
              {cancelLabel}
            </Button>
            <Button onClick={() => answer(true)}>{confirmLabel}</Button>
          </>
        ) : (
          <Button ref={safe} onClick={() => answer(true)}>
            {confirmLabel}
          </Button>
        )}
      </div>
    </dialog>
  );
}

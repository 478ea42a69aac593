/**
 * @jest-environment @happy-dom/jest-environment
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { DialogHost, confirm, notice } from '../src/index.js';

// The dialog's behaviour in a DOM (happy-dom): where the focus goes, what Escape and each button answer, the order
// of queued dialogs. The same behaviour with real keys in Chromium: membership.browser.spec.ts (Billing cancellation).

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let root: Root;
let container: HTMLElement;
let opener: HTMLButtonElement;

beforeEach(() => {
  opener = document.createElement('button');
  opener.textContent = 'Delete account';
  document.body.append(opener);
  container = document.createElement('div');
  document.body.append(container);
  root = createRoot(container);
  act(() => {
    root.render(<DialogHost />);
  });
  opener.focus();
});

afterEach(() => {
  act(() => {
    root.unmount();
  });
  document.body.replaceChildren();
});

/** Asks (inside act, so the host renders the dialog) and returns the answer still to come. */
function ask<T>(question: () => Promise<T>): { answer: Promise<T> } {
  let answer!: Promise<T>;
  act(() => {
    answer = question();
  });
  return { answer };
}

const dialogs = () => [...document.querySelectorAll<HTMLDialogElement>('[role="alertdialog"]')];

function theDialog(): HTMLDialogElement {
  const [dialog, ...more] = dialogs();
  expect(more).toHaveLength(0);
  if (!dialog) throw new Error('No alert dialog is shown.');
  return dialog;
}

/** The dialog's accessible name: the text of the element its aria-labelledby points to. */
const nameOf = (dialog: Element) => document.getElementById(dialog.getAttribute('aria-labelledby') ?? '')?.textContent;

function button(dialog: Element, name: string): HTMLButtonElement {
  const found = [...dialog.querySelectorAll('button')].find((b) => b.textContent === name);
  if (!found) throw new Error(`No button named ${name}.`);
  return found;
}

const buttonNames = (dialog: Element) => [...dialog.querySelectorAll('button')].map((b) => b.textContent).join(' | ');

function press(target: HTMLButtonElement): void {
  act(() => {
    target.click();
  });
}

/** What the browser does on Escape in a modal dialog: a cancelable `cancel` event at the dialog. */
function escape(dialog: HTMLDialogElement): Event {
  const event = new Event('cancel', { cancelable: true });
  act(() => {
    dialog.dispatchEvent(event);
  });
  return event;
}

describe('confirm()', () => {
  it('opens a modal alertdialog named by its question, with the caller’s buttons and the focus on the safe one', async () => {
    const { answer } = ask(() =>
      confirm({ title: 'Delete your account?', message: 'This cannot be undone.', confirmLabel: 'Delete account', cancelLabel: 'Keep it' }),
    );
    const dialog = theDialog();
    expect(dialog.tagName).toBe('DIALOG');
    expect(dialog.open).toBe(true);
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    expect(nameOf(dialog)).toBe('Delete your account?');
    expect(document.getElementById(dialog.getAttribute('aria-describedby') ?? '')?.textContent).toBe('This cannot be undone.');
    expect(buttonNames(dialog)).toBe('Keep it | Delete account');
    expect(document.activeElement).toBe(button(dialog, 'Keep it'));

    press(button(dialog, 'Delete account'));
    await expect(answer).resolves.toBe(true);
    expect(dialogs()).toHaveLength(0);
    expect(document.activeElement).toBe(opener);
  });

  it('answers false to Cancel, which is the no-button’s name unless the caller gives one', async () => {
    const { answer } = ask(() => confirm({ title: 'Mark order DC-1 as refunded?', confirmLabel: 'Mark as refunded' }));
    const dialog = theDialog();
    expect(buttonNames(dialog)).toBe('Cancel | Mark as refunded');
    press(button(dialog, 'Cancel'));
    await expect(answer).resolves.toBe(false);
    expect(dialogs()).toHaveLength(0);
    expect(document.activeElement).toBe(opener);
  });

  it('answers false to Escape, closing the dialog itself (the browser’s default is prevented)', async () => {
    const { answer } = ask(() => confirm({ title: 'Cancel your membership?', confirmLabel: 'Cancel membership' }));
    const event = escape(theDialog());
    expect(event.defaultPrevented).toBe(true);
    await expect(answer).resolves.toBe(false);
    expect(dialogs()).toHaveLength(0);
    expect(document.activeElement).toBe(opener);
  });

  it('answers once: a second press after the answer changes nothing', async () => {
    const { answer } = ask(() => confirm({ title: 'Disable card 0001?', confirmLabel: 'Disable card' }));
    const dialog = theDialog();
    press(button(dialog, 'Disable card'));
    escape(dialog);
    await expect(answer).resolves.toBe(true);
  });

  it('keeps Tab inside the dialog, from the last button to the first and back with Shift+Tab', async () => {
    const { answer } = ask(() => confirm({ title: 'Email every rep?', confirmLabel: 'Email the reps' }));
    const dialog = theDialog();
    const [first, last] = [button(dialog, 'Cancel'), button(dialog, 'Email the reps')];
    last.focus();
    const tab = new KeyboardEvent('keydown', { key: 'Tab', bubbles: true, cancelable: true });
    act(() => {
      last.dispatchEvent(tab);
    });
    expect(tab.defaultPrevented).toBe(true);
    expect(document.activeElement).toBe(first);
    const backTab = new KeyboardEvent('keydown', { key: 'Tab', shiftKey: true, bubbles: true, cancelable: true });
    act(() => {
      first.dispatchEvent(backTab);
    });
    expect(backTab.defaultPrevented).toBe(true);
    expect(document.activeElement).toBe(last);
    press(first);
    await expect(answer).resolves.toBe(false);
  });
});

describe('notice()', () => {
  it('shows one OK button with the focus on it, and settles when it is pressed', async () => {
    let settled = false;
    const { answer: shown } = ask(() => notice({ title: 'Profile updated' }).then(() => (settled = true)));
    const dialog = theDialog();
    expect(nameOf(dialog)).toBe('Profile updated');
    expect(dialog.hasAttribute('aria-describedby')).toBe(false);
    expect(buttonNames(dialog)).toBe('OK');
    expect(document.activeElement).toBe(button(dialog, 'OK'));
    expect(settled).toBe(false);
    press(button(dialog, 'OK'));
    await shown;
    expect(settled).toBe(true);
    expect(document.activeElement).toBe(opener);
  });

  it('settles on Escape too', async () => {
    const { answer: shown } = ask(() => notice({ title: 'Failed to register: the email is taken' }));
    escape(theDialog());
    await expect(shown).resolves.toBeUndefined();
    expect(dialogs()).toHaveLength(0);
  });
});

describe('several dialogs', () => {
  it('shows them one at a time in the order asked; the next takes the focus, the opener gets it back after the last', async () => {
    const { answer: first } = ask(() => notice({ title: 'Your cards have been added to your basket.' }));
    const { answer: second } = ask(() => confirm({ title: 'Go to PayFast?', confirmLabel: 'Pay' }));
    expect(nameOf(theDialog())).toBe('Your cards have been added to your basket.');

    press(button(theDialog(), 'OK'));
    await first;
    const next = theDialog();
    expect(nameOf(next)).toBe('Go to PayFast?');
    expect(document.activeElement).toBe(button(next, 'Cancel'));

    press(button(next, 'Pay'));
    await expect(second).resolves.toBe(true);
    expect(dialogs()).toHaveLength(0);
    expect(document.activeElement).toBe(opener);
  });

  it('leaves the focus alone when the opener has left the page meanwhile', async () => {
    const { answer } = ask(() => confirm({ title: 'Delete the rep?', confirmLabel: 'Delete rep' }));
    opener.remove();
    press(button(theDialog(), 'Delete rep'));
    await expect(answer).resolves.toBe(true);
    expect(document.activeElement).not.toBe(opener);
  });
});

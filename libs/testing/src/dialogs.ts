import type { Locator, Page } from 'playwright-core';

/**
 * The web app's notices and questions are its own alert dialogs (@digicard/ui's notice() and confirm()), not the
 * browser's: tests find them by role and name and press their buttons by name, as a person would.
 */

/** The open alert dialog (there is at most one at a time). */
export function alertDialog(page: Page): Locator {
  return page.getByRole('alertdialog');
}

/** What a dialog says: its title, then its message on the next line when it has one (as `window.alert` showed them). */
async function dialogText(dialog: Locator): Promise<string> {
  return dialog.evaluate((element) => {
    const text = (attribute: string) => {
      const id = element.getAttribute(attribute);
      return id ? (element.ownerDocument.getElementById(id)?.textContent ?? '') : '';
    };
    return [text('aria-labelledby'), text('aria-describedby')].filter(Boolean).join('\n');
  });
}

/**
 * Waits for the alert dialog whose title is `title` (a string matches the whole title), presses the button named
 * `button` in it, waits until it has closed, and returns its text.
 */
export async function answerDialog(page: Page, title: string | RegExp, button = 'OK', timeout = 10_000): Promise<string> {
  const dialog = page.getByRole('alertdialog', { name: title, exact: typeof title === 'string' });
  await dialog.waitFor({ state: 'visible', timeout });
  const text = await dialogText(dialog);
  const shown = await dialog.elementHandle();
  await dialog.getByRole('button', { name: button, exact: true }).click();
  // This dialog, not the next one the app may have queued behind it.
  await shown?.waitForElementState('hidden', { timeout });
  return text;
}

/**
 * For the whole life of `page`: each alert dialog that opens is answered yes and, once closed, read into `seen` (what
 * accepting the browser's `alert`/`confirm` did). Yes is the dialog's button named by one of `yes`: a notice's OK, and
 * each question's own yes-button the test expects to press ("Delete rep", "Cancel order"); a question whose buttons are
 * none of them is left open, so the test fails where a person would have stopped. Stops when the page closes, or when
 * the returned function is called. Tests that mean to say no or press Escape use `answerDialog` or the keyboard.
 */
export function acceptDialogs(page: Page, seen: string[], yes: readonly string[] = []): () => void {
  const names = ['OK', ...yes];
  let stopped = false;
  const dialog = alertDialog(page);
  void (async () => {
    while (!stopped && !page.isClosed()) {
      try {
        await dialog.waitFor({ state: 'visible', timeout: 0 });
        if (stopped) return;
        const shown = await dialog.elementHandle();
        const text = await dialogText(dialog);
        const buttons = await dialog.getByRole('button').allTextContents();
        const name = buttons.map((button) => button.trim()).find((button) => names.includes(button));
        if (name === undefined) {
          // Not a dialog this test answers: leave it open and wait until it is gone (the test fails on its own terms).
          await shown?.waitForElementState('hidden', { timeout: 0 }).catch(() => undefined);
          continue;
        }
        await dialog.getByRole('button', { name, exact: true }).click();
        // Counted once closed: closing returns focus to the opener, so a test acting on "seen" must come after that.
        // OK may also take the page elsewhere (a notice before a navigation): a dialog gone with its page was closed too.
        await shown?.waitForElementState('hidden', { timeout: 0 }).catch(() => undefined);
        seen.push(text);
      } catch {
        // The page closed or navigated while the dialog was open: look again (the loop ends once the page is closed).
        if (page.isClosed()) return;
      }
    }
  })();
  return () => {
    stopped = true;
  };
}

/**
 * Waits until `seen` (filled by `acceptDialogs`) holds at least `count` dialogs, then takes them all out and returns
 * them. A dialog counts once it has closed, which can be a moment after the page it led to has loaded.
 */
export async function takeDialogs(seen: string[], count = 1, timeout = 10_000): Promise<string[]> {
  const deadline = Date.now() + timeout;
  while (seen.length < count && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  return seen.splice(0);
}

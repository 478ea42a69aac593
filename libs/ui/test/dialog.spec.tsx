import { describe, expect, it } from '@jest/globals';
import { renderToStaticMarkup } from 'react-dom/server';
import { AlertDialogView, DialogHost, confirm, notice } from '../src/index.js';

// The dialog's markup as the server renders it: the roles and names a screen reader and the browser tests rely on.
// Its behaviour (focus in, Tab kept inside, Escape, focus back, the answers): dialog-behaviour.spec.tsx in a DOM,
// membership.browser.spec.ts in Chromium.

const noAnswer = () => undefined;

describe('AlertDialogView', () => {
  it('is a modal alertdialog named by its title and described by its message', () => {
    const html = renderToStaticMarkup(
      <AlertDialogView
        kind="notice"
        title="Profile not updated"
        message="Please fix the fields."
        confirmLabel="OK"
        cancelLabel=""
        onAnswer={noAnswer}
      />,
    );
    expect(html).toMatch(
      /^<dialog class="ui-dialog" role="alertdialog" aria-modal="true" aria-labelledby="([^"]+)" aria-describedby="([^"]+)">/,
    );
    const [, titleId, messageId] = /aria-labelledby="([^"]+)" aria-describedby="([^"]+)"/.exec(html)!;
    expect(html).toContain(`<h2 id="${titleId}" class="ui-dialog__title">Profile not updated</h2>`);
    expect(html).toContain(`<p id="${messageId}" class="ui-dialog__message">Please fix the fields.</p>`);
    expect(html.match(/<button/g)).toHaveLength(1);
    expect(html).toContain('>OK</button>');
  });

  it('asks with Cancel before the confirm button, and has no description without a message', () => {
    const html = renderToStaticMarkup(
      <AlertDialogView kind="confirm" title="Delete the rep?" confirmLabel="Delete" cancelLabel="Cancel" onAnswer={noAnswer} />,
    );
    expect(html).not.toContain('aria-describedby');
    expect(html).not.toContain('ui-dialog__message');
    expect(html).toMatch(
      /<button type="button" class="ui-button ui-button--secondary">Cancel<\/button><button type="button" class="ui-button ui-button--primary">Delete<\/button>/,
    );
  });
});

describe('DialogHost, notice and confirm', () => {
  it('renders nothing on the server, so the browser’s first render matches it', () => {
    expect(renderToStaticMarkup(<DialogHost />)).toBe('');
  });

  it('refuses to ask when no host is mounted to show the dialog', async () => {
    await expect(notice({ title: 'Saved' })).rejects.toThrow('No <DialogHost /> is mounted');
    await expect(confirm({ title: 'Sure?', confirmLabel: 'Yes' })).rejects.toThrow('No <DialogHost /> is mounted');
  });
});

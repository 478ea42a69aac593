/**
 * @jest-environment @happy-dom/jest-environment
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { AccountMessages } from '@digicard/contracts';
import { MemoryRouter } from 'react-router';
import {
  alerts,
  byText,
  click,
  errorOf,
  fakeGateway,
  field,
  mount,
  signIn,
  type,
  waitFor,
  type FakeAnswer,
  type Mounted,
} from '../../../testing/dom';
import { DeleteAccount } from './delete-account';

// Deleting the account (react-hook-form over DeleteAccountSchema): a blank password is the spec's words on the field
// and nothing is asked or sent; the server's refusal of the password lands on the field.

let mounted: Mounted | null = null;
let gateway: ReturnType<typeof fakeGateway>;
let answer: () => FakeAnswer;

beforeEach(() => {
  signIn();
  gateway = fakeGateway({ 'DELETE /api/accounts/me': () => answer() });
});
afterEach(() => {
  mounted?.unmount();
  mounted = null;
});

const group = () => mounted!.container.querySelector<HTMLElement>('[role="group"][aria-label="Delete my account"]')!;

describe('DeleteAccount', () => {
  it('a blank password is “Password required to confirm.” on the field; nothing is sent', async () => {
    mounted = mount(
      <MemoryRouter>
        <DeleteAccount />
      </MemoryRouter>,
    );
    await click(byText(group(), 'Delete my account', 'button'));
    await waitFor('the field’s error', () => errorOf(field(group(), 'Password')) === AccountMessages.passwordRequired);
    expect(gateway.calls).toEqual([]);
  });

  it('puts the server’s refusal of the password on the field (after the confirmation)', async () => {
    answer = () => ({
      status: 400,
      body: {
        statusCode: 400,
        code: 'VALIDATION_FAILED',
        message: 'Please check the form.',
        fieldErrors: { password: ['Incorrect password. Please try again.'] },
      },
    });
    const { DialogHost } = await import('@digicard/ui');
    mounted = mount(
      <MemoryRouter>
        <DeleteAccount />
        <DialogHost />
      </MemoryRouter>,
    );
    type(field(group(), 'Password'), 'not my password');
    await click(byText(group(), 'Delete my account', 'button'));
    const yes = await waitFor('the confirmation', () =>
      [...document.querySelectorAll<HTMLButtonElement>('[role="alertdialog"] button')].find((b) => b.textContent === 'Delete my account'),
    );
    await click(yes);
    await waitFor('the field’s error', () => errorOf(field(group(), 'Password')) === 'Incorrect password. Please try again.');
    expect(alerts(group())).toEqual([]);
    expect(gateway.requests.map((r) => [r.method, r.path, r.body])).toEqual([
      ['DELETE', '/api/accounts/me', { password: 'not my password' }],
    ]);
  });
});

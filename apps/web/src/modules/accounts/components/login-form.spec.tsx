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
import { LoginForm } from './login-form';

// The login form's other two buttons send the email typed above, each checked first by its own contract schema
// (PasswordResetRequestSchema, SsoStartSchema): what is wrong is said (beside the button, or on the field) and the email
// field is focused, with nothing sent.

const INVALID_EMAIL = 'Please enter a valid email address, e.g. thabo@example.co.za.';

let mounted: Mounted | null = null;
let gateway: ReturnType<typeof fakeGateway>;
let ssoAnswer: () => FakeAnswer;

beforeEach(() => {
  // A CSRF token, so that the posts go at once (the form itself does not read the session).
  signIn();
  ssoAnswer = () => ({
    status: 400,
    body: {
      statusCode: 400,
      code: 'VALIDATION_FAILED',
      message: 'Please check the form.',
      fieldErrors: { email: ['No team signs in with this domain.'] },
    },
  });
  gateway = fakeGateway({
    'POST /api/password-reset/request': () => ({ status: 202, body: { message: 'On its way.' } }),
    'POST /api/sso/start': () => ssoAnswer(),
  });
  mounted = mount(
    <MemoryRouter initialEntries={['/login']}>
      <LoginForm labelledBy="login-title" />
    </MemoryRouter>,
  );
});
afterEach(() => {
  mounted?.unmount();
  mounted = null;
});

const page = () => mounted!.container;
const email = () => field(page(), 'Email');

describe('Reset Password', () => {
  it('asks for the email when there is none, and says a malformed one, each beside the button with the field focused', async () => {
    await click(byText(page(), 'Reset Password', 'button'));
    await waitFor('the request for an email', () => alerts(page()).includes(AccountMessages.resetEmailRequired));
    expect(document.activeElement).toBe(email());

    type(email(), '  thabo@  ');
    await click(byText(page(), 'Reset Password', 'button'));
    await waitFor('the format', () => alerts(page()).includes(INVALID_EMAIL));
    expect(alerts(page())).toEqual([INVALID_EMAIL]);
    expect(errorOf(email())).toBeNull();
    expect(gateway.count('POST /api/password-reset/request')).toBe(0);
  });

  it('sends the email as the contract makes it (trimmed) and says the link is on its way', async () => {
    type(email(), ' thabo@example.co.za ');
    await click(byText(page(), 'Reset Password', 'button'));
    await waitFor('sent', () => byText(page(), AccountMessages.resetSent));
    expect(gateway.requests.map((r) => [r.path, r.body])).toEqual([['/api/password-reset/request', { email: 'thabo@example.co.za' }]]);
  });
});

describe('Sign in with your company account', () => {
  it('says on the field what is wrong with the email (none, malformed) and sends nothing', async () => {
    await click(byText(page(), 'Sign in with your company account', 'button'));
    await waitFor('the field’s error', () => errorOf(email()) === 'Please enter your email address.');
    expect(document.activeElement).toBe(email());
    type(email(), 'thabo@');
    await click(byText(page(), 'Sign in with your company account', 'button'));
    await waitFor('the field’s error', () => errorOf(email()) === INVALID_EMAIL);
    expect(gateway.count('POST /api/sso/start')).toBe(0);
  });

  it('sends the work email and puts the server’s refusal of it on the field', async () => {
    type(email(), ' thabo@pinnacle.co.za');
    await click(byText(page(), 'Sign in with your company account', 'button'));
    await waitFor('the refusal', () => errorOf(email()) === 'No team signs in with this domain.');
    expect(gateway.requests.map((r) => [r.path, r.body])).toEqual([['/api/sso/start', { email: 'thabo@pinnacle.co.za' }]]);
    expect(byText(page(), 'Sign in with your company account', 'button')).not.toBeNull();
  });
});

/**
 * @jest-environment @happy-dom/jest-environment
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { MemoryRouter } from 'react-router';
import { alerts, byText, click, fakeGateway, mount, OWNER_ID, signIn, waitFor, type FakeAnswer, type Mounted } from '../../../testing/dom';
import { SessionProvider } from '../../session/components/session-provider';
import { sessionStore } from '../../session/utils/session-store';
import { LINK_CHECK_FAILED_MESSAGE } from '../utils/check-link-once';
import { SignInLinkGate } from './sign-in-link-gate';

// Before an emailed link signs its account in: a signed-out browser goes on at once (nothing is asked); a browser
// signed in to another account is asked first (the link check, a TanStack query), and goes on once signed out.

const SIGNED_IN = {
  user: {
    id: OWNER_ID,
    username: 'thandi',
    email: 'thandi@example.co.za',
    firstName: 'Thandi',
    lastName: 'Mahlangu',
    role: 'user',
    isVerified: true,
  },
  csrfToken: 'csrf-token-1',
};
// Each test its own link: a link's answer is kept per link and attempt for the page's lifetime.
const token = (n: number) => `sign-in-link-token-${n}-abcdefghijkl`;

let mounted: Mounted | null = null;
let gateway: ReturnType<typeof fakeGateway>;
let checkAnswers: Array<() => FakeAnswer>;

beforeEach(() => {
  signIn();
  checkAnswers = [];
  gateway = fakeGateway({
    'GET /api/session': () => ({ status: 200, body: sessionStore.get().user ? SIGNED_IN : { user: null, csrfToken: null } }),
    'POST /api/email-links/check': () =>
      (checkAnswers.shift() ?? (() => ({ status: 200, body: { forSignedInAccount: true, maskedEmail: 't***@e***.za' } })))(),
    'DELETE /api/session': () => ({ status: 204 }),
  });
});
afterEach(() => {
  mounted?.unmount();
  mounted = null;
});

const gate = (linkToken: string) =>
  mount(
    <MemoryRouter>
      <SessionProvider>
        <SignInLinkGate purpose="verify-email" token={linkToken}>
          <p>The link’s page</p>
        </SignInLinkGate>
      </SessionProvider>
    </MemoryRouter>,
  );
const page = () => mounted!.container;

describe('SignInLinkGate', () => {
  it('signed out: the page goes on at once, and nothing is asked', async () => {
    sessionStore.setSignedOut();
    mounted = gate(token(1));
    expect(byText(page(), 'The link’s page')).not.toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(gateway.count('POST /api/email-links/check')).toBe(0);
  });

  it('signed in to the link’s own account: "Loading..." while asked, then the page goes on', async () => {
    mounted = gate(token(2));
    expect(page().querySelector('[role="status"]')?.textContent).toBe('Loading...');
    await waitFor('the page', () => byText(page(), 'The link’s page'));
    expect(gateway.requests.find((r) => r.path === '/api/email-links/check')?.body).toEqual({ purpose: 'verify-email', token: token(2) });
  });

  it('signed in to another account: asks (focused) before the link is used, and goes on after "Sign out and continue"', async () => {
    checkAnswers = [() => ({ status: 200, body: { forSignedInAccount: false, maskedEmail: 'b***@m***.za' } })];
    mounted = gate(token(3));
    const situation = await waitFor('the question', () =>
      byText(page(), 'You are signed in as thandi@example.co.za. This link is for another account.'),
    );
    expect(byText(page(), 'Sign out and continue as b***@m***.za?')).not.toBeNull();
    expect(document.activeElement).toBe(situation.closest('[role="alert"]'));
    expect(byText(page(), 'No, stay signed in', 'a')).not.toBeNull();
    expect(byText(page(), 'The link’s page')).toBeNull();

    await click(byText(page(), 'Sign out and continue', 'button'));
    await waitFor('the page', () => byText(page(), 'The link’s page'));
    expect(gateway.count('DELETE /api/session')).toBe(1);
    expect(gateway.count('POST /api/email-links/check')).toBe(1);
  });

  it('a failed check offers "Try again", which asks again', async () => {
    checkAnswers = [
      () => ({ status: 503, body: { statusCode: 503, code: 'SERVICE_UNAVAILABLE', message: 'Service unavailable' } }),
      () => ({ status: 200, body: { forSignedInAccount: false, maskedEmail: 'b***@m***.za' } }),
    ];
    mounted = gate(token(4));
    await waitFor('the failure', () => alerts(page()).includes(LINK_CHECK_FAILED_MESSAGE));
    await click(byText(page(), 'Try again', 'button'));
    await waitFor('the question', () => byText(page(), 'Sign out and continue as b***@m***.za?'));
    expect(gateway.count('POST /api/email-links/check')).toBe(2);
  });
});

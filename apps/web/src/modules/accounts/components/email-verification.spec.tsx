/**
 * @jest-environment @happy-dom/jest-environment
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { sampleOrder } from '../../../testing/orders';
import { AccountMessages } from '@digicard/contracts';
import { StrictMode } from 'react';
import { MemoryRouter } from 'react-router';
import {
  alerts,
  byText,
  click,
  deferred,
  fakeGateway,
  mount,
  OWNER_ID,
  signIn,
  waitFor,
  type FakeAnswer,
  type Mounted,
} from '../../../testing/dom';
import { queryClient } from '../../api/query-client';
import { SessionProvider } from '../../session/components/session-provider';
import { sessionStore } from '../../session/utils/session-store';
import { EmailVerification } from './email-verification';

// The verification link's page: "Verifying your email...", then the server's answer. The link is used by one request
// (React's StrictMode mounts the page twice), "Try again" after a failure sends a new one, and once verified the
// sign-up's order still to be paid is shown, though the link's sign-in empties the query cache meanwhile.

const VERIFIED = 'Your email address has been verified.';
const FAILED = 'We could not verify your email right now. Please try again in a minute.';
const NEW_ACCOUNT_ID = '9e8d7c6b-5a49-4382-b1a0-f9e8d7c6b5a4';
const user = (id: string) => ({
  id,
  username: 'ayanda',
  email: 'ayanda@example.co.za',
  firstName: 'Ayanda',
  lastName: 'Zulu',
  role: 'user',
  isVerified: true,
});
const unpaid = sampleOrder();

// Each test its own link: a link's answer is kept per token and attempt for the page's lifetime.
const token = (n: number) => `verification-link-token-${n}-abcdefghij`;

let mounted: Mounted | null = null;
let gateway: ReturnType<typeof fakeGateway>;
let session: unknown;
let sessionAnswer: () => FakeAnswer | Promise<FakeAnswer>;
let verifyAnswers: Array<() => FakeAnswer | Promise<FakeAnswer>>;

beforeEach(() => {
  signIn();
  session = { user: user(OWNER_ID), csrfToken: 'csrf-token-1' };
  verifyAnswers = [];
  sessionAnswer = () => ({ status: 200, body: session });
  gateway = fakeGateway({
    'GET /api/session': () => sessionAnswer(),
    'POST /api/email-verification': () => (verifyAnswers.shift() ?? (() => ({ status: 200, body: { message: VERIFIED } })))(),
    'GET /api/orders': () => ({ status: 200, body: { orders: [unpaid], nextCursor: null } }),
  });
});
afterEach(() => {
  mounted?.unmount();
  mounted = null;
});

const page = (linkToken: string) => (
  <MemoryRouter>
    <SessionProvider>
      <EmailVerification token={linkToken} />
    </SessionProvider>
  </MemoryRouter>
);
const status = () => mounted!.container.querySelector('[role="status"]')?.textContent ?? null;

describe('EmailVerification', () => {
  it('says "Verifying your email...", then the server’s answer (focused), then the order the sign-up placed', async () => {
    // Opened signed out: the link signs its new account in, and the app's query cache is emptied then.
    sessionStore.setSignedOut();
    session = { user: null, csrfToken: null };
    const later = deferred<FakeAnswer>();
    verifyAnswers = [() => later.promise];
    mounted = mount(page(token(1)), queryClient);
    expect(status()).toBe('Verifying your email...');
    await waitFor('the request', () => gateway.count('POST /api/email-verification') === 1);
    // The session, read again once the link is used, answers when the test says.
    const signedIn = deferred<FakeAnswer>();
    sessionAnswer = () => signedIn.promise;
    later.release({ status: 200, body: { message: VERIFIED } });

    const notice = await waitFor('the answer', () => byText(mounted!.container, VERIFIED));
    expect(document.activeElement).toBe(notice.closest('[tabindex="-1"]'));
    await waitFor('the session read again', () => gateway.count('GET /api/session') === 2);
    expect(gateway.count('GET /api/orders')).toBe(0);
    signedIn.release({ status: 200, body: { user: user(NEW_ACCOUNT_ID), csrfToken: 'csrf-token-2' } });
    await waitFor('the unpaid order', () => byText(mounted!.container, 'Your order awaits payment', 'h2'));
    expect(byText(mounted.container, 'Pay for your cards', 'button')).not.toBeNull();
    expect(sessionStore.get().user?.id).toBe(NEW_ACCOUNT_ID);
    // Read once, for the account the link signed in (not before its sign-in emptied the cache).
    expect(gateway.count('GET /api/orders')).toBe(1);
    expect(byText(mounted.container, 'Go to Dashboard', 'a')).not.toBeNull();
  });

  it('a failed request offers "Try again", which sends a new one', async () => {
    verifyAnswers = [() => ({ status: 503, body: { statusCode: 503, code: 'SERVICE_UNAVAILABLE', message: 'Service unavailable' } })];
    mounted = mount(page(token(2)));
    await waitFor('the failure', () => alerts(mounted!.container).includes(FAILED));
    const later = deferred<FakeAnswer>();
    verifyAnswers = [() => later.promise];
    await click(byText(mounted.container, 'Try again', 'button'));
    await waitFor('Verifying again', () => status() === 'Verifying your email...');
    expect(byText(mounted.container, 'Try again', 'button')).toBeNull();
    later.release({ status: 200, body: { message: VERIFIED } });
    await waitFor('the answer', () => byText(mounted!.container, VERIFIED));
    expect(gateway.count('POST /api/email-verification')).toBe(2);
    expect(gateway.requests.filter((r) => r.method === 'POST').map((r) => r.body)).toEqual([{ token: token(2) }, { token: token(2) }]);
  });

  it('uses the link with one request when the page is mounted, unmounted and mounted again (as StrictMode does)', async () => {
    const later = deferred<FakeAnswer>();
    verifyAnswers = [() => later.promise];
    mounted = mount(<StrictMode>{page(token(3))}</StrictMode>);
    await waitFor('the request', () => gateway.count('POST /api/email-verification') === 1);
    mounted.unmount();
    mounted = mount(<StrictMode>{page(token(3))}</StrictMode>);
    expect(status()).toBe('Verifying your email...');
    later.release({ status: 200, body: { message: VERIFIED } });
    await waitFor('the answer', () => byText(mounted!.container, VERIFIED));
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(gateway.count('POST /api/email-verification')).toBe(1);
  });

  it('an incomplete link says so without a request', async () => {
    mounted = mount(page('cut-off'));
    await waitFor('the message', () => alerts(mounted!.container).includes(AccountMessages.linkInvalid));
    expect(gateway.count('POST /api/email-verification')).toBe(0);
  });
});

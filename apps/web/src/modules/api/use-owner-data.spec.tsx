/**
 * @jest-environment @happy-dom/jest-environment
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { HttpRoutes } from '@digicard/contracts';
import { focusManager, onlineManager } from '@tanstack/react-query';
import { act } from 'react';
import { byText, click, deferred, fakeGateway, mount, signIn, waitFor, type FakeAnswer, type Mounted } from '../../testing/dom';
import { LoadFailed } from '../site/components/load-failed';
import { getJson, NETWORK_FAILURE_MESSAGE } from './http';
import { queryClient } from './query-client';
import { useOwnerData } from './use-owner-data';

// useOwnerData over TanStack Query, through the one fetch helper: what a section shows while loading, after a 503
// and with no connection at all (even when the browser says it is offline), "Try again", no refetch on window focus,
// and the cache emptied when another account signs in.

const FAILED = 'We could not load your billing details. Please try again in a minute.';
const billing = { membership: 'DigiGold', subscription: null, payments: [] };

function Billing() {
  const { state, retry } = useOwnerData(['billing'], () => getJson(HttpRoutes.getBilling), FAILED);
  if (state.status === 'loading') return <p role="status">Loading...</p>;
  if (state.status === 'failed') return <LoadFailed message={state.message} retry={retry} />;
  return <p>{`Your membership: ${state.value.membership}`}</p>;
}

let mounted: Mounted | null = null;
let answer: () => FakeAnswer | Promise<FakeAnswer>;
let gateway: ReturnType<typeof fakeGateway>;

beforeEach(() => {
  signIn();
  answer = () => ({ status: 200, body: billing });
  gateway = fakeGateway({ 'GET /api/billing': () => answer() });
});
afterEach(() => {
  mounted?.unmount();
  mounted = null;
});

describe('useOwnerData', () => {
  it('shows Loading..., then what the server answered', async () => {
    mounted = mount(<Billing />);
    expect(mounted.container.textContent).toBe('Loading...');
    await waitFor('the billing', () => byText(mounted!.container, 'Your membership: DigiGold'));
    expect(gateway.calls).toEqual(['GET /api/billing']);
  });

  it('a 503 says the section’s failure, once (no retries), and Try again reads it again from Loading...', async () => {
    answer = () => ({ status: 503, body: { statusCode: 503, code: 'SERVICE_UNAVAILABLE', message: 'Billing is unavailable.' } });
    mounted = mount(<Billing />);
    await waitFor('the failure', () => byText(mounted!.container, FAILED));
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(gateway.count('GET /api/billing')).toBe(1);

    const later = deferred<FakeAnswer>();
    answer = () => later.promise;
    await click(byText(mounted.container, 'Try again', 'button'));
    await waitFor('Loading...', () => mounted!.container.textContent === 'Loading...');
    later.release({ status: 200, body: billing });
    await waitFor('the billing', () => byText(mounted!.container, 'Your membership: DigiGold'));
    expect(gateway.count('GET /api/billing')).toBe(2);
  });

  it('no connection: the helper’s words, even while the browser says it is offline (the request is still made)', async () => {
    // What TanStack Query believes (it follows the browser's online and offline events).
    onlineManager.setOnline(false);
    try {
      answer = () => 'network-failure';
      mounted = mount(<Billing />);
      await waitFor('the network failure', () => byText(mounted!.container, NETWORK_FAILURE_MESSAGE));
      expect(gateway.count('GET /api/billing')).toBe(1);
    } finally {
      onlineManager.setOnline(true);
    }
    // Coming back online does not read it again by itself (mobile data): "Try again" does.
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(gateway.count('GET /api/billing')).toBe(1);
  });

  it('does not read again when the window gets the focus back', async () => {
    mounted = mount(<Billing />);
    await waitFor('the billing', () => byText(mounted!.container, 'Your membership: DigiGold'));
    await act(async () => {
      focusManager.setFocused(false);
      focusManager.setFocused(true);
      await new Promise((resolve) => setTimeout(resolve, 50));
    });
    focusManager.setFocused(undefined);
    expect(gateway.count('GET /api/billing')).toBe(1);
  });

  it('reads again each time the section opens, showing Loading... (not what an earlier visit read) until then', async () => {
    mounted = mount(<Billing />);
    await waitFor('the billing', () => byText(mounted!.container, 'Your membership: DigiGold'));
    const client = mounted.client;
    mounted.unmount(true);
    const later = deferred<FakeAnswer>();
    answer = () => later.promise;
    mounted = mount(<Billing />, client);
    await waitFor('the request', () => gateway.count('GET /api/billing') === 2);
    expect(mounted.container.textContent).toBe('Loading...');
    later.release({ status: 200, body: { ...billing, membership: 'DigiSilver' } });
    await waitFor('the new billing', () => byText(mounted!.container, 'Your membership: DigiSilver'));
    expect(gateway.count('GET /api/billing')).toBe(2);
  });
});

describe('the app’s query cache', () => {
  it('is emptied when another account signs in, or the owner signs out', () => {
    signIn('user', OTHER_ID_A);
    queryClient.setQueryData(['billing'], billing);
    signIn('user', OTHER_ID_A);
    expect(queryClient.getQueryData(['billing'])).toEqual(billing);
    signIn('user', OTHER_ID_B);
    expect(queryClient.getQueryData(['billing'])).toBeUndefined();
    queryClient.setQueryData(['billing'], billing);
    act(() => {
      signIn('user', OTHER_ID_B);
    });
    expect(queryClient.getQueryData(['billing'])).toEqual(billing);
  });
});

const OTHER_ID_A = '6f1d2c3b-4a59-4e7d-8c6b-5a4f3e2d1c0b';
const OTHER_ID_B = '7a2e3d4c-5b6a-4f8e-9d7c-6b5a4f3e2d1c';

/**
 * @jest-environment @happy-dom/jest-environment
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { ProfileDefaults, type OwnProfile } from '@digicard/contracts';
import { act, useEffect } from 'react';
import { fakeGateway, mount, signIn, waitFor, type Mounted } from '../../../testing/dom';
import { signOut, USER_DATA_STORAGE_KEY } from '../../session/utils/session-actions';
import { useProfileEditor, type ProfileEditor } from './use-profile-editor';

// The product spec on the profile kept in the browser: "Local item: userData (profile held in browser storage, removed
// on sign-out)" (section 3) and "Profile data is held locally and updated on every edit; saved to the server only by
// Save" (section 4). Each edit is in localStorage `userData` at once, before any Save; Sign Out removes it.

const profile: OwnProfile = {
  username: 'thandi',
  firstName: 'Thandi',
  lastName: 'Mahlangu',
  email: 'thandi@example.co.za',
  membership: 'DigiShare',
  isVerified: true,
  isPublic: true,
  isPartner: false,
  document: ProfileDefaults,
  updatedAt: '2026-11-20T08:00:00.000Z',
};

let mounted: Mounted | null = null;
let gateway: ReturnType<typeof fakeGateway>;
let editor: ProfileEditor | null = null;

/** The hook in a component, handed to the test after each render. */
function Probe() {
  const current = useProfileEditor();
  useEffect(() => {
    editor = current;
  });
  return null;
}

const stored = () =>
  JSON.parse(localStorage.getItem(USER_DATA_STORAGE_KEY) ?? 'null') as { username: string; document: typeof ProfileDefaults } | null;

beforeEach(() => {
  localStorage.clear();
  signIn();
  gateway = fakeGateway({
    'GET /api/profile': () => ({ status: 200, body: profile }),
    'DELETE /api/session': () => ({ status: 204 }),
  });
});
afterEach(() => {
  mounted?.unmount();
  mounted = null;
  editor = null;
});

describe('the profile kept in the browser (userData)', () => {
  it('holds every edit at once, one after another, with nothing sent to the server until Save', async () => {
    mounted = mount(<Probe />);
    await waitFor('the profile', () => stored()?.username === 'thandi');
    expect(stored()?.document).toEqual(ProfileDefaults);

    act(() => editor!.setField('title', 'Sales Director'));
    expect(stored()?.document.title).toBe('Sales Director');
    act(() => editor!.setField('businessName', 'Mahlangu Solar'));
    expect(stored()?.document).toMatchObject({ title: 'Sales Director', businessName: 'Mahlangu Solar' });
    act(() => editor!.setField('buttonBackgroundColor', '#123456'));
    act(() => editor!.setField('title', 'Director'));
    expect(stored()?.document).toMatchObject({ title: 'Director', businessName: 'Mahlangu Solar', buttonBackgroundColor: '#123456' });

    expect(gateway.calls).toEqual(['GET /api/profile']);
  });

  it('is removed at Sign Out', async () => {
    mounted = mount(<Probe />);
    await waitFor('the profile', () => stored()?.username === 'thandi');
    act(() => editor!.setField('title', 'Sales Director'));
    expect(await signOut()).toBe(true);
    expect(localStorage.getItem(USER_DATA_STORAGE_KEY)).toBeNull();
  });
});

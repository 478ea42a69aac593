/**
 * @jest-environment @happy-dom/jest-environment
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { ProfileDefaults, type ApiError, type OwnProfile, type ProfileDocument } from '@digicard/contracts';
import { DialogHost } from '@digicard/ui';
import { act, useEffect } from 'react';
import {
  byText,
  click,
  deferred,
  fakeGateway,
  mount,
  signIn,
  waitFor,
  type FakeAnswer,
  type FakeRequest,
  type Mounted,
} from '../../../testing/dom';
import { signOut, USER_DATA_STORAGE_KEY } from '../../session/utils/session-actions';
import { lockedQuestion } from '../utils/document';
import { FIX_FIELDS_MESSAGE } from '../utils/validation';
import {
  LOAD_FAILED_MESSAGE,
  placeSaveError,
  PROFILE_UPDATED,
  SESSION_ENDED_MESSAGE,
  useOwnProfile,
  useProfileEditor,
  type OwnProfileQuery,
  type ProfileEditor,
  type SaveOutcome,
} from './use-profile-editor';

// The editor's data and Save's decisions, through the hooks the page uses (the profile a TanStack query, the draft a
// react-hook-form form checked by ProfileDocumentSchema) against a fake gateway: loading, dirty tracking, errors,
// what Save sends (or why it sends nothing), and the profile kept in the browser.

// The product spec on the profile kept in the browser: "Local item: userData (profile held in browser storage, removed
// on sign-out)" (section 3) and "Profile data is held locally and updated on every edit; saved to the server only by
// Save" (section 4). Each edit is in localStorage `userData` at once, before any Save; Sign Out removes it.

const profile = (document: Partial<ProfileDocument> = {}, account: Partial<OwnProfile> = {}): OwnProfile => ({
  username: 'thandi',
  firstName: 'Thandi',
  lastName: 'Mahlangu',
  email: 'thandi@example.co.za',
  membership: 'DigiGold',
  isVerified: true,
  isPublic: true,
  isPartner: false,
  updatedAt: '2026-11-20T08:00:00.000Z',
  ...account,
  document: { ...ProfileDefaults, ...document },
});

let mounted: Mounted | null = null;
let gateway: ReturnType<typeof fakeGateway>;
let served: OwnProfile;
let readAnswer: () => FakeAnswer;
let saveAnswer: (request: FakeRequest) => FakeAnswer | Promise<FakeAnswer>;
let own: OwnProfileQuery | null = null;
let editor: ProfileEditor | null = null;

/** The page's hooks in components, handed to the test after each render (the editor once the profile is read). */
function Editor({ query, loaded }: { query: OwnProfileQuery; loaded: OwnProfile }) {
  const current = useProfileEditor(query, loaded);
  useEffect(() => {
    editor = current;
  });
  return null;
}
function Probe() {
  const query = useOwnProfile();
  useEffect(() => {
    own = query;
    if (query.state.status !== 'loaded') editor = null;
  });
  return query.state.status === 'loaded' ? <Editor query={query} loaded={query.state.value} /> : null;
}

const start = async () => {
  mounted = mount(
    <>
      <Probe />
      <DialogHost />
    </>,
  );
  return waitFor('the profile', () => editor);
};
const ready = () => editor!;
/** Makes a change, then lets the form's checks (asynchronous) finish. */
const checked = (change: () => void) =>
  act(async () => {
    change();
    await new Promise((resolve) => setTimeout(resolve, 0));
  });
const save = async (): Promise<SaveOutcome> => {
  let outcome: SaveOutcome = null;
  await act(async () => {
    outcome = await ready().save();
  });
  return outcome;
};
const storeDraft = (document: ProfileDocument, base: ProfileDocument = ProfileDefaults) =>
  localStorage.setItem(USER_DATA_STORAGE_KEY, JSON.stringify({ username: 'thandi', base, document }));
const stored = () =>
  JSON.parse(localStorage.getItem(USER_DATA_STORAGE_KEY) ?? 'null') as { username: string; document: typeof ProfileDefaults } | null;
const refused = (statusCode: number, fieldErrors?: Record<string, string[]>): FakeAnswer => ({
  status: statusCode,
  body: { statusCode, code: statusCode === 400 ? 'VALIDATION_FAILED' : 'FORBIDDEN', message: `refused ${statusCode}`, fieldErrors },
});

beforeEach(() => {
  localStorage.clear();
  signIn();
  served = profile();
  readAnswer = () => ({ status: 200, body: served });
  saveAnswer = (request) => {
    served = { ...served, document: (request.body as { document: ProfileDocument }).document };
    return { status: 200, body: served };
  };
  gateway = fakeGateway({
    'GET /api/profile': () => readAnswer(),
    'PUT /api/profile': (request) => saveAnswer(request),
    'PUT /api/profile/settings': (request) => ({
      status: 200,
      body: profile({ title: 'server' }, { ...(request.body as object), firstName: 'Other', updatedAt: '2026-11-26T00:00:00.000Z' }),
    }),
    'DELETE /api/session': () => ({ status: 204 }),
  });
});
afterEach(() => {
  mounted?.unmount();
  mounted = null;
  own = null;
  editor = null;
});

describe('the profile kept in the browser (userData)', () => {
  it('holds every edit at once, one after another, with nothing sent to the server until Save', async () => {
    await start();
    await waitFor('the profile', () => stored()?.username === 'thandi');
    expect(stored()?.document).toEqual(ProfileDefaults);

    act(() => ready().setField('title', 'Sales Director'));
    expect(stored()?.document.title).toBe('Sales Director');
    act(() => ready().setField('businessName', 'Mahlangu Solar'));
    expect(stored()?.document).toMatchObject({ title: 'Sales Director', businessName: 'Mahlangu Solar' });
    act(() => ready().setField('buttonBackgroundColor', '#123456'));
    act(() => ready().setField('title', 'Director'));
    expect(stored()?.document).toMatchObject({ title: 'Director', businessName: 'Mahlangu Solar', buttonBackgroundColor: '#123456' });

    expect(gateway.calls).toEqual(['GET /api/profile']);
  });

  it('is removed at Sign Out', async () => {
    await start();
    await waitFor('the profile', () => stored()?.username === 'thandi');
    act(() => ready().setField('title', 'Sales Director'));
    expect(await signOut()).toBe(true);
    expect(localStorage.getItem(USER_DATA_STORAGE_KEY)).toBeNull();
  });
});

describe('loading the profile', () => {
  it('loads the server document as the draft, or a restored draft marked as restored', async () => {
    const fresh = await start();
    expect([fresh.draft, fresh.saved, fresh.restored, fresh.errors]).toEqual([ProfileDefaults, ProfileDefaults, false, {}]);
    const { document: _document, ...account } = profile();
    expect(fresh.account).toEqual(account);
    expect('document' in fresh.account).toBe(false);
    mounted!.unmount();

    storeDraft({ ...ProfileDefaults, title: 'Designer' });
    const restored = await start();
    expect([restored.draft.title, restored.saved.title, restored.restored]).toEqual(['Designer', '', true]);
    expect(restored.dirty).toBe(true);
  });

  it('has nothing to edit until the profile is read, or after a failed read; Try again reads it again from "Loading..."', async () => {
    const answer = deferred<FakeAnswer>();
    readAnswer = () => answer.promise as unknown as FakeAnswer;
    mounted = mount(<Probe />);
    await waitFor('the query', () => own);
    expect([own!.state, editor]).toEqual([{ status: 'loading' }, null]);
    answer.release(refused(503));
    await waitFor('the failure', () => own!.state.status === 'failed');
    expect([own!.state, editor]).toEqual([{ status: 'failed', message: LOAD_FAILED_MESSAGE }, null]);

    const again = deferred<FakeAnswer>();
    readAnswer = () => again.promise as unknown as FakeAnswer;
    act(() => own!.retry());
    await waitFor('"Loading..."', () => own!.state.status === 'loading');
    expect(editor).toBeNull();
    again.release({ status: 200, body: served });
    await waitFor('the profile', () => editor);
    expect(gateway.count('GET /api/profile')).toBe(2);
  });

  it('says the session ended (401) or that the server could not be reached (no answer)', async () => {
    readAnswer = () => ({ status: 401, body: { statusCode: 401, code: 'UNAUTHENTICATED', message: 'Please sign in.' } });
    mounted = mount(<Probe />);
    await waitFor('the failure', () => own?.state.status === 'failed');
    expect(own!.state).toEqual({ status: 'failed', message: SESSION_ENDED_MESSAGE });
    mounted.unmount();

    readAnswer = () => 'network-failure';
    mounted = mount(<Probe />);
    await waitFor('the failure', () => own?.state.status === 'failed');
    expect(own!.state.status === 'failed' && own!.state.message).not.toBe(LOAD_FAILED_MESSAGE);
    expect(own!.state.status === 'failed' && own!.state.message).toMatch(/could not reach the server/i);
  });
  it('reads the profile again, every second, until profiles has heard of a new tier (a failed read leaves the editor shown)', async () => {
    await start();
    act(() => ready().setField('title', 'draft'));
    let reads = 0;
    readAnswer = () => {
      reads += 1;
      if (reads === 1) return 'network-failure';
      return { status: 200, body: reads < 3 ? served : { ...served, membership: 'DigiSilver', updatedAt: '2026-11-21T08:00:00.000Z' } };
    };
    act(() => ready().membershipChanged('DigiSilver'));
    await waitFor('the new tier', () => ready().account.updatedAt === '2026-11-21T08:00:00.000Z', 5000);
    expect([reads, own!.state.status, ready().account.membership, ready().draft.title]).toEqual([3, 'loaded', 'DigiSilver', 'draft']);
    // Polling stops once profiles agrees.
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 1500));
    });
    expect(reads).toBe(3);
  }, 10_000);
});

describe('editing', () => {
  it('is dirty after an edit and clean again when the edit is undone, whatever the order of the keys', async () => {
    // The server's answer has its keys in another order than the form's draft.
    served = { ...served, document: Object.fromEntries(Object.entries(ProfileDefaults).reverse()) as ProfileDocument };
    await start();
    expect(ready().dirty).toBe(false);
    act(() => ready().setField('title', 'Founder'));
    expect(ready().dirty).toBe(true);
    act(() => ready().setField('title', ''));
    expect(ready().dirty).toBe(false);
  });

  it("an edit clears the errors of its path and the paths under it, and no one else's", async () => {
    const links = [
      { buttonName: 'Shop', url: 'https://khumalo.studio' },
      { buttonName: 'Blog', url: 'https://khumalo.studio/blog' },
    ];
    served = profile({ websiteLinks: links });
    saveAnswer = () =>
      refused(400, {
        'document.websiteLinks.0.url': ['bad'],
        'document.websiteLinks.1.url': ['bad'],
        'document.websiteLinksX': ['kept'],
        'document.title': ['kept'],
      });
    await start();
    await save();
    expect(Object.keys(ready().errors).sort()).toEqual(['title', 'websiteLinks.0.url', 'websiteLinks.1.url', 'websiteLinksX']);

    await checked(() => ready().edit((d) => d, 'websiteLinks.1'));
    expect(Object.keys(ready().errors).sort()).toEqual(['title', 'websiteLinks.0.url', 'websiteLinksX']);
    await checked(() => ready().edit((d) => d, 'websiteLinks'));
    expect(ready().errors).toEqual({ websiteLinksX: 'kept', title: 'kept' });
  });

  it('after a Save, an edited field is checked again at once: corrected it loses its error, still wrong it says so', async () => {
    await start();
    act(() => ready().setField('tel', 'not a phone'));
    act(() => ready().setField('profileImageHeight', 185));
    await save();
    expect(Object.keys(ready().errors).sort()).toEqual(['profileImageHeight', 'tel']);
    await checked(() => ready().setField('profileImageHeight', 195));
    expect(ready().errors['profileImageHeight']).toBe('Profile image height moves in steps of 10.');
    await checked(() => ready().setField('profileImageHeight', 190));
    expect(Object.keys(ready().errors)).toEqual(['tel']);
  });

  it('an image saved at upload is saved and drafted at once, so it does not make the editor dirty', async () => {
    saveAnswer = () => refused(400, { 'document.profileImage': ['Please upload the image again.'] });
    await start();
    await save();
    expect(ready().errors).toEqual({ profileImage: 'Please upload the image again.' });
    act(() => ready().imageStored('profileImage', '/media/abcdefghijkl.webp'));
    await waitFor('the saved image', () => ready().saved.profileImage !== '');
    expect([ready().saved.profileImage, ready().draft.profileImage]).toEqual(['/media/abcdefghijkl.webp', '/media/abcdefghijkl.webp']);
    expect(ready().errors).toEqual({});
    expect(ready().dirty).toBe(false);
  });

  it('settings change the membership, visibility and time only; a rename changes the names only', async () => {
    await start();
    act(() => ready().setField('title', 'draft'));
    let result: unknown;
    await act(async () => {
      result = await ready().changeSettings({ isPublic: false, membership: 'DigiShare' });
    });
    expect(result).toEqual({ ok: true });
    await waitFor('the new settings', () => ready().account.updatedAt === '2026-11-26T00:00:00.000Z');
    const { account } = ready();
    expect([account.membership, account.isPublic, account.updatedAt, account.firstName]).toEqual([
      'DigiShare',
      false,
      '2026-11-26T00:00:00.000Z',
      'Thandi',
    ]);
    expect([ready().draft.title, ready().saved.title]).toEqual(['draft', '']);
    act(() => ready().renamed({ firstName: 'Nala', lastName: 'K' }));
    await waitFor('the new names', () => ready().account.firstName === 'Nala');
    expect([ready().account.firstName, ready().account.lastName, ready().account.membership]).toEqual(['Nala', 'K', 'DigiShare']);
  });

  it('discarding a restored draft goes back to the saved document', async () => {
    storeDraft({ ...ProfileDefaults, title: 'left from before', profileImageHeight: 185 });
    await start();
    await save();
    expect(ready().errors).toEqual({ profileImageHeight: 'Profile image height moves in steps of 10.' });
    act(() => ready().discardRestored());
    expect([ready().draft, ready().restored, ready().errors, ready().dirty]).toEqual([ProfileDefaults, false, {}, false]);
  });
});

describe('Save', () => {
  it('sends the document trimmed, then shows the server document, unless the owner edited on while it was on its way', async () => {
    storeDraft({ ...ProfileDefaults, title: 'old' });
    await start();
    expect(ready().restored).toBe(true);
    act(() => ready().setField('title', '  Founder  '));
    act(() => ready().setField('websiteLinks', [{ buttonName: ' Shop ', url: ' https://khumalo.studio ' }]));
    expect(await save()).toEqual({ ok: true, message: PROFILE_UPDATED });
    const sent = gateway.requests.find((r) => r.method === 'PUT')!.body as { document: ProfileDocument };
    expect(sent.document).toEqual({
      ...ProfileDefaults,
      title: 'Founder',
      websiteLinks: [{ buttonName: 'Shop', url: 'https://khumalo.studio' }],
    });
    await waitFor('the answer', () => ready().saved.title === 'Founder');
    expect([ready().draft.title, ready().saved.title, ready().restored, ready().errors, ready().dirty]).toEqual([
      'Founder',
      'Founder',
      false,
      {},
      false,
    ]);

    // An edit while the save is on its way stays, and the editor stays dirty.
    const answer = deferred<FakeAnswer>();
    saveAnswer = (request) => {
      const document = (request.body as { document: ProfileDocument }).document;
      served = { ...served, document, updatedAt: '2026-11-25T11:00:00.000Z' };
      const body = served;
      return answer.promise.then(() => ({ status: 200, body }));
    };
    act(() => ready().setField('title', ' Director '));
    let saving!: Promise<SaveOutcome>;
    act(() => {
      saving = ready().save();
    });
    await waitFor('the request', () => gateway.count('PUT /api/profile') === 2);
    act(() => ready().setField('tel', '082 555 1234'));
    answer.release({ status: 200 });
    await act(async () => {
      await saving;
    });
    await waitFor('the answer', () => ready().account.updatedAt === '2026-11-25T11:00:00.000Z');
    expect([ready().draft.tel, ready().draft.title, ready().saved.title, ready().account.updatedAt]).toEqual([
      '082 555 1234',
      ' Director ',
      'Director',
      '2026-11-25T11:00:00.000Z',
    ]);
    expect(ready().dirty).toBe(true);
  });

  it('sends nothing and shows every field error when the draft fails the checks', async () => {
    await start();
    act(() => ready().setField('websiteLinks', [{ buttonName: 'Broken', url: 'not a web address' }]));
    act(() => ready().setField('products', [{ name: ' ', link: '', imageUrl: '' }]));
    act(() => ready().setField('profileImageHeight', 185));
    const errors = {
      'websiteLinks.0.url': 'Please enter a full web address starting with https://',
      'products.0.name': 'Please name the product.',
      profileImageHeight: 'Profile image height moves in steps of 10.',
    };
    expect(await save()).toEqual({ ok: false, message: FIX_FIELDS_MESSAGE, errors });
    expect(ready().errors).toEqual(errors);
    expect(gateway.count('PUT /api/profile')).toBe(0);
  });

  it('asks before leaving out what the membership does not include, and saves nothing when the owner says no', async () => {
    const draft = {
      ...ProfileDefaults,
      socialLinks: [{ platform: 'instagram' as const, url: 'https://www.instagram.com/khumalo.studio' }],
      videoLink: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
      gallery: [{ imageUrl: '/media/abcdefghijkl.webp' }],
    };
    const question =
      'Your DigiShare membership does not include social links, gallery images and the video link. Save without them? They will be removed from your profile.';
    served = profile({}, { membership: 'DigiShare' });
    storeDraft(draft);
    await start();

    let saving!: Promise<SaveOutcome>;
    act(() => {
      saving = ready().save();
    });
    await waitFor('the question', () => byText(document.body, question));
    await click(byText(document.body, 'Cancel', 'button'));
    await act(async () => {
      expect(await saving).toBeNull();
    });
    expect([gateway.count('PUT /api/profile'), ready().draft]).toEqual([0, draft]);

    act(() => {
      saving = ready().save();
    });
    await click(await waitFor('the question', () => byText(document.body, 'Save without them', 'button')));
    await act(async () => {
      expect(await saving).toEqual({ ok: true, message: PROFILE_UPDATED });
    });
    const without = { ...draft, socialLinks: [], gallery: [], videoLink: '' };
    expect((gateway.requests.find((r) => r.method === 'PUT')!.body as { document: ProfileDocument }).document).toEqual(without);
    expect(ready().draft).toEqual(without);
  });

  it('keeps the agreed removal even when the rest of the draft is invalid', async () => {
    served = profile({}, { membership: 'DigiShare' });
    storeDraft({ ...ProfileDefaults, videoLink: 'https://youtu.be/x', title: 'x'.repeat(121) });
    await start();
    let saving!: Promise<SaveOutcome>;
    act(() => {
      saving = ready().save();
    });
    await click(await waitFor('the question', () => byText(document.body, 'Save without them', 'button')));
    let outcome: SaveOutcome = null;
    await act(async () => {
      outcome = await saving;
    });
    expect(outcome).toMatchObject({ ok: false, message: FIX_FIELDS_MESSAGE });
    expect([ready().draft.videoLink, Object.keys(ready().errors)]).toEqual(['', ['title']]);
    expect(gateway.count('PUT /api/profile')).toBe(0);
  });
});

describe('lockedQuestion and the refusals of a save', () => {
  it('names one, two or more locked parts in a sentence', () => {
    expect(lockedQuestion('DigiShare', ['products'])).toMatch(/^Your DigiShare membership does not include products\. Save without them\?/);
    expect(lockedQuestion('DigiSilver', ['gallery', 'products'])).toContain('does not include gallery images and products.');
  });

  it("puts a 400's field errors on the editor's paths (the first message of each), and none from other refusals", () => {
    const placed: Array<[string, string | undefined]> = [];
    const setError = (name: string, error: { message?: string }) => void placed.push([name, error.message]);
    const error = (statusCode: number, fieldErrors?: Record<string, string[]>): ApiError => ({
      statusCode,
      code: 'VALIDATION_FAILED',
      message: `refused ${statusCode}`,
      ...(fieldErrors ? { fieldErrors } : {}),
    });
    const fieldErrors = { 'document.websiteLinks.0.url': ['first', 'second'], document: ['whole'], 'document.tel': [] };

    // The whole document's error is the form's message.
    expect(placeSaveError(error(400, fieldErrors), setError)).toEqual({
      ok: false,
      message: 'whole',
      errors: { 'websiteLinks.0.url': 'first' },
    });
    expect(placed).toEqual([['websiteLinks.0.url', 'first']]);
    expect(placeSaveError(error(400, { 'document.tel': ['Please enter a phone number.'] }), setError)).toEqual({
      ok: false,
      message: 'refused 400',
      errors: { tel: 'Please enter a phone number.' },
    });
    placed.length = 0;
    expect(placeSaveError(error(403, fieldErrors), setError)).toEqual({ ok: false, message: 'refused 403', errors: {} });
    expect(placeSaveError(error(400), setError)).toEqual({ ok: false, message: 'refused 400', errors: {} });
    expect(placed).toEqual([]);
  });
});

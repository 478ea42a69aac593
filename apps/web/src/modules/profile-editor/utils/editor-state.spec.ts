import { describe, expect, it } from '@jest/globals';
import { ProfileDefaults, type OwnProfile, type ProfileDocument } from '@digicard/contracts';
import {
  editorReducer,
  INITIAL_EDITOR_STATE,
  isDirty,
  lockedQuestion,
  planSave,
  saveErrors,
  type EditorState,
  type ReadyState,
} from './editor-state';

// The editor's state and Save's decisions, without React or a server: the reducer useProfileEditor runs, dirty
// tracking, and what Save sends (or why it sends nothing).

const profile = (document: Partial<ProfileDocument> = {}, account: Partial<OwnProfile> = {}): OwnProfile => ({
  username: 'naledi',
  firstName: 'Naledi',
  lastName: 'Khumalo',
  email: 'naledi@example.co.za',
  membership: 'DigiGold',
  isVerified: true,
  isPublic: true,
  updatedAt: '2026-11-25T10:00:00.000Z',
  ...account,
  document: { ...ProfileDefaults, ...document },
});

function ready(state: EditorState): ReadyState {
  if (state.status !== 'ready') throw new Error(`expected a loaded editor, got ${state.status}`);
  return state;
}
const loaded = (p: OwnProfile = profile(), draft: ProfileDocument | null = null) =>
  ready(editorReducer(INITIAL_EDITOR_STATE, { type: 'loaded', profile: p, draft }));
const never = () => {
  throw new Error('asked to confirm when nothing is locked');
};

describe('editorReducer', () => {
  it('loads the server document as the draft, or a restored draft marked as restored', () => {
    const fresh = loaded();
    expect([fresh.draft, fresh.saved, fresh.restored, fresh.errors]).toEqual([ProfileDefaults, ProfileDefaults, false, {}]);
    const { document: _document, ...account } = profile();
    expect(fresh.account).toEqual(account);
    expect('document' in fresh.account).toBe(false);

    const earlier = { ...ProfileDefaults, title: 'Designer' };
    const restored = loaded(profile(), earlier);
    expect([restored.draft.title, restored.saved.title, restored.restored]).toEqual(['Designer', '', true]);
    expect(isDirty(restored)).toBe(true);
  });

  it('ignores edits until the profile is loaded, and after a failed load', () => {
    const edit = { type: 'edit', change: (d: ProfileDocument) => ({ ...d, title: 'x' }), clear: 'title' } as const;
    expect(editorReducer(INITIAL_EDITOR_STATE, edit)).toBe(INITIAL_EDITOR_STATE);
    const failed = editorReducer(INITIAL_EDITOR_STATE, { type: 'failed', message: 'down' });
    expect(editorReducer(failed, edit)).toEqual({ status: 'failed', message: 'down' });
    expect(editorReducer(loaded(), { type: 'loading' })).toEqual({ status: 'loading' });
  });

  it('is dirty after an edit and clean again when the edit is undone, whatever the order of the keys', () => {
    const start = loaded();
    expect(isDirty(start)).toBe(false);
    const edited = ready(editorReducer(start, { type: 'edit', change: (d) => ({ ...d, title: 'Founder' }), clear: 'title' }));
    expect(isDirty(edited)).toBe(true);
    const undone = ready(editorReducer(edited, { type: 'edit', change: (d) => ({ ...d, title: '' }), clear: 'title' }));
    expect(isDirty(undone)).toBe(false);
    const reordered = Object.fromEntries(Object.entries(start.draft).reverse()) as ProfileDocument;
    expect(isDirty({ ...start, draft: reordered })).toBe(false);
    expect(isDirty(INITIAL_EDITOR_STATE)).toBe(false);
  });

  it("an edit clears the errors of its path and the paths under it, and no one else's", () => {
    const withErrors = ready(
      editorReducer(loaded(), {
        type: 'errors',
        errors: { 'websiteLinks.0.url': 'bad', 'websiteLinks.1.url': 'bad', websiteLinksX: 'kept', title: 'kept' },
      }),
    );
    const edited = ready(editorReducer(withErrors, { type: 'edit', change: (d) => d, clear: 'websiteLinks' }));
    expect(edited.errors).toEqual({ websiteLinksX: 'kept', title: 'kept' });
    const one = ready(editorReducer(withErrors, { type: 'edit', change: (d) => d, clear: 'websiteLinks.1' }));
    expect(Object.keys(one.errors).sort()).toEqual(['title', 'websiteLinks.0.url', 'websiteLinksX']);
  });

  it('an image saved at upload is saved and drafted at once, so it does not make the editor dirty', () => {
    const withError = ready(editorReducer(loaded(), { type: 'errors', errors: { profileImage: 'Please upload the image again.' } }));
    const stored = ready(editorReducer(withError, { type: 'imageStored', field: 'profileImage', url: '/media/abcdefghijkl.webp' }));
    expect([stored.saved.profileImage, stored.draft.profileImage]).toEqual(['/media/abcdefghijkl.webp', '/media/abcdefghijkl.webp']);
    expect(stored.errors).toEqual({});
    expect(isDirty(stored)).toBe(false);
  });

  it('after a save shows the server document, unless the owner edited on while it was on its way', () => {
    const sent = { ...ProfileDefaults, title: ' Founder ' };
    const editing = ready(editorReducer(loaded(profile(), null), { type: 'edit', change: () => sent, clear: 'title' }));
    const answer = profile({ title: 'Founder' }, { updatedAt: '2026-11-25T11:00:00.000Z' });

    const done = ready(editorReducer({ ...editing, restored: true, errors: { title: 'old' } }, { type: 'saved', profile: answer, sent }));
    expect([done.draft.title, done.saved.title, done.restored, done.errors, done.account.updatedAt]).toEqual([
      'Founder',
      'Founder',
      false,
      {},
      '2026-11-25T11:00:00.000Z',
    ]);
    expect(isDirty(done)).toBe(false);

    const later = ready(editorReducer(editing, { type: 'edit', change: (d) => ({ ...d, tel: '082 555 1234' }), clear: 'tel' }));
    const kept = ready(editorReducer(later, { type: 'saved', profile: answer, sent }));
    expect([kept.draft.tel, kept.draft.title, kept.saved.title]).toEqual(['082 555 1234', ' Founder ', 'Founder']);
    expect(isDirty(kept)).toBe(true);
  });

  it('settings change the membership, visibility and time only; a rename changes the names only', () => {
    const start = ready(editorReducer(loaded(), { type: 'edit', change: (d) => ({ ...d, title: 'draft' }), clear: 'title' }));
    const changed = ready(
      editorReducer(start, {
        type: 'settings',
        profile: profile(
          { title: 'server' },
          { membership: 'DigiShare', isPublic: false, firstName: 'Other', updatedAt: '2026-11-26T00:00:00.000Z' },
        ),
      }),
    );
    expect([changed.account.membership, changed.account.isPublic, changed.account.updatedAt, changed.account.firstName]).toEqual([
      'DigiShare',
      false,
      '2026-11-26T00:00:00.000Z',
      'Naledi',
    ]);
    expect([changed.draft.title, changed.saved.title]).toEqual(['draft', '']);
    const renamed = ready(editorReducer(changed, { type: 'renamed', firstName: 'Nala', lastName: 'K' }));
    expect([renamed.account.firstName, renamed.account.lastName, renamed.account.membership]).toEqual(['Nala', 'K', 'DigiShare']);
  });

  it('discarding a restored draft goes back to the saved document', () => {
    const restored = loaded(profile(), { ...ProfileDefaults, title: 'left from before' });
    const withErrors = ready(editorReducer(restored, { type: 'errors', errors: { title: 'x' } }));
    const discarded = ready(editorReducer(withErrors, { type: 'discard' }));
    expect([discarded.draft, discarded.restored, discarded.errors, isDirty(discarded)]).toEqual([ProfileDefaults, false, {}, false]);
  });
});

describe('planSave', () => {
  it('sends the document trimmed, and remembers the draft it came from', () => {
    const draft = { ...ProfileDefaults, title: '  Founder  ', websiteLinks: [{ buttonName: ' Shop ', url: ' https://khumalo.studio ' }] };
    const plan = planSave(draft, 'DigiGold', never);
    expect(plan).toEqual({
      kind: 'send',
      payload: { ...draft, title: 'Founder', websiteLinks: [{ buttonName: 'Shop', url: 'https://khumalo.studio' }] },
      sent: draft,
      kept: null,
    });
  });

  it('sends nothing and shows every field error when the draft fails the checks', () => {
    const draft = {
      ...ProfileDefaults,
      websiteLinks: [{ buttonName: 'Broken', url: 'not a web address' }],
      products: [{ name: ' ', link: '', imageUrl: '' }],
      profileImageHeight: 185,
    };
    const plan = planSave(draft, 'DigiGold', never);
    expect(plan).toEqual({
      kind: 'invalid',
      kept: null,
      errors: {
        'websiteLinks.0.url': 'Please enter a full web address starting with https://',
        'products.0.name': 'Please name the product.',
        profileImageHeight: 'Profile image height moves in steps of 10.',
      },
    });
  });

  it('asks before leaving out what the membership does not include, and saves nothing when the owner says no', () => {
    const draft = {
      ...ProfileDefaults,
      socialLinks: [{ platform: 'instagram' as const, url: 'https://www.instagram.com/khumalo.studio' }],
      videoLink: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
      gallery: [{ imageUrl: '/media/abcdefghijkl.webp' }],
    };
    const asked: string[] = [];
    expect(planSave(draft, 'DigiShare', (q) => (asked.push(q), false))).toEqual({ kind: 'cancelled' });
    expect(asked).toEqual([
      'Your DigiShare membership does not include social links, gallery images and the video link. Save without them? They will be removed from your profile.',
    ]);

    const plan = planSave(draft, 'DigiShare', () => true);
    const without = { ...draft, socialLinks: [], gallery: [], videoLink: '' };
    expect(plan).toEqual({ kind: 'send', payload: without, sent: without, kept: without });
    // DigiSilver includes social links: only the rest is asked about.
    expect(planSave(draft, 'DigiSilver', (q) => (asked.push(q), true))).toMatchObject({
      kind: 'send',
      payload: { socialLinks: draft.socialLinks },
    });
    expect(asked.at(-1)).toBe(lockedQuestion('DigiSilver', ['gallery', 'video']));
  });

  it('keeps the agreed removal even when the rest of the draft is invalid', () => {
    const draft = { ...ProfileDefaults, videoLink: 'https://youtu.be/x', title: 'x'.repeat(121) };
    const plan = planSave(draft, 'DigiShare', () => true);
    expect(plan.kind).toBe('invalid');
    expect(plan.kind === 'invalid' && [plan.kept?.videoLink, Object.keys(plan.errors)]).toEqual(['', ['title']]);
  });
});

describe('lockedQuestion and saveErrors', () => {
  it('names one, two or more locked parts in a sentence', () => {
    expect(lockedQuestion('DigiShare', ['products'])).toMatch(/^Your DigiShare membership does not include products\. Save without them\?/);
    expect(lockedQuestion('DigiSilver', ['gallery', 'products'])).toContain('does not include gallery images and products.');
  });

  it("takes a 400's field errors in the editor's paths (the first message of each), and none from other refusals", () => {
    const fieldErrors = { 'document.websiteLinks.0.url': ['first', 'second'], document: ['whole'], 'document.tel': [] };
    expect(saveErrors({ statusCode: 400, fieldErrors })).toEqual({ 'websiteLinks.0.url': 'first', _form: 'whole' });
    expect(saveErrors({ statusCode: 403, fieldErrors })).toEqual({});
    expect(saveErrors({ statusCode: 400 })).toEqual({});
  });
});

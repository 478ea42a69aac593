import { confirm } from '@digicard/ui';
import type { Membership, OwnProfile, ProfileDocument } from '@digicard/contracts';
import { useCallback, useEffect, useReducer, useState } from 'react';
import { refreshSession } from '../../session/utils/session-actions';
import { fetchOwnProfile, saveProfile, saveSettings } from '../api/profile';
import { restorableDraft, storeDraft } from '../utils/draft-storage';
import { lockedContent, LockedFeatureNames, sameDocument, withoutLocked, type LockedFeature } from '../utils/document';
import { errorsFromServer, FIX_FIELDS_MESSAGE, validateDocument, withoutErrors, type FieldErrors } from '../utils/validation';

export const PROFILE_UPDATED = 'Profile is updated';
export const PROFILE_NOT_UPDATED = 'Profile not updated';
export const SESSION_ENDED_MESSAGE = 'Your session has ended. Please log in again; your changes are kept in this browser.';
export const LOAD_FAILED_MESSAGE = 'We could not load your profile. Please try again in a minute.';

/** The owner's account facts the editor shows and the preview needs (everything of OwnProfile but the document). */
export type ProfileAccount = Omit<OwnProfile, 'document'>;

/** The image fields the server saves into the profile as soon as they are uploaded. */
export type ImmediateImageField = 'profileImage' | 'profileBackground' | 'businessLogo';

type Ready = {
  status: 'ready';
  account: ProfileAccount;
  /** The document as the server last confirmed it. */
  saved: ProfileDocument;
  /** The document being edited (what the preview shows). */
  draft: ProfileDocument;
  /** The draft came back from browser storage (unsaved edits of an earlier visit). */
  restored: boolean;
  errors: FieldErrors;
};
type State = { status: 'loading' } | { status: 'failed'; message: string } | Ready;

type Action =
  | { type: 'loading' }
  | { type: 'failed'; message: string }
  | { type: 'loaded'; profile: OwnProfile; draft: ProfileDocument | null }
  | { type: 'edit'; change: (draft: ProfileDocument) => ProfileDocument; clear: string }
  | { type: 'imageStored'; field: ImmediateImageField; url: string }
  | { type: 'saved'; profile: OwnProfile; sent: ProfileDocument }
  | { type: 'errors'; errors: FieldErrors }
  | { type: 'settings'; profile: OwnProfile }
  | { type: 'renamed'; firstName: string; lastName: string }
  | { type: 'discard' };

const accountOf = ({ document: _document, ...account }: OwnProfile): ProfileAccount => account;

function reducer(state: State, action: Action): State {
  if (action.type === 'loading') return { status: 'loading' };
  if (action.type === 'failed') return { status: 'failed', message: action.message };
  if (action.type === 'loaded') {
    return {
      status: 'ready',
      account: accountOf(action.profile),
      saved: action.profile.document,
      draft: action.draft ?? action.profile.document,
      restored: action.draft !== null,
      errors: {},
    };
  }
  return state.status === 'ready' ? change(state, action) : state;
}

/** The changes of a loaded editor. */
function change(state: Ready, action: Exclude<Action, { type: 'loading' | 'failed' | 'loaded' }>): Ready {
  switch (action.type) {
    case 'edit':
      return { ...state, draft: action.change(state.draft), errors: withoutErrors(state.errors, action.clear) };
    case 'imageStored':
      return {
        ...state,
        saved: { ...state.saved, [action.field]: action.url },
        draft: { ...state.draft, [action.field]: action.url },
        errors: withoutErrors(state.errors, action.field),
      };
    case 'saved':
      // Edits made while the request was on its way stay; otherwise the server's (trimmed) document is shown.
      return {
        ...state,
        account: accountOf(action.profile),
        saved: action.profile.document,
        draft: sameDocument(state.draft, action.sent) ? action.profile.document : state.draft,
        restored: false,
        errors: {},
      };
    case 'errors':
      return { ...state, errors: action.errors };
    case 'settings':
      return {
        ...state,
        account: {
          ...state.account,
          membership: action.profile.membership,
          isPublic: action.profile.isPublic,
          updatedAt: action.profile.updatedAt,
        },
      };
    case 'renamed':
      // Identity has the new names; the preview shows them at once (profiles' copy follows from identity's event).
      return { ...state, account: { ...state.account, firstName: action.firstName, lastName: action.lastName } };
    case 'discard':
      return { ...state, draft: state.saved, restored: false, errors: {} };
  }
}

export type SaveOutcome =
  | { ok: true; message: string }
  | { ok: false; message: string; errors: FieldErrors }
  /** The owner chose not to save (kept the content their membership does not include). */
  | null;

export type SettingsOutcome = { ok: true } | { ok: false; message: string };

export interface ProfileEditor {
  state: State;
  dirty: boolean;
  saving: boolean;
  reload: () => void;
  /** Changes the draft; errors at `clear` (a path, or a prefix of paths) are taken away. */
  edit: (change: (draft: ProfileDocument) => ProfileDocument, clear: string) => void;
  setField: <K extends keyof ProfileDocument>(key: K, value: ProfileDocument[K]) => void;
  imageStored: (field: ImmediateImageField, url: string) => void;
  discardRestored: () => void;
  save: () => Promise<SaveOutcome>;
  changeSettings: (settings: { isPublic?: boolean; membership?: Membership }) => Promise<SettingsOutcome>;
  /** The owner's names changed (Settings, Account): the preview shows them. */
  renamed: (names: { firstName: string; lastName: string }) => void;
  /**
   * Payments says the tier is now `membership` (a PayFast payment confirmed while Billing was open): the profile is
   * read again until profiles agrees, so every section (and the preview) shows the new tier without a reload.
   */
  membershipChanged: (membership: Membership) => void;
}

/** How often, and how many times, the profile is read again until profiles has heard of a new tier. */
const MEMBERSHIP_POLL_MS = 1000;
const MEMBERSHIP_POLLS = 30;

/**
 * The editor's data: GET /api/profile once, the draft edited locally (mirrored into localStorage `userData`),
 * Save (PUT /api/profile with the whole document), and the settings written at once (PUT /api/profile/settings).
 */
export function useProfileEditor(): ProfileEditor {
  const [state, dispatch] = useReducer(reducer, { status: 'loading' });
  const [saving, setSaving] = useState(false);
  const [loadCount, setLoadCount] = useState(0);

  useEffect(() => {
    let current = true;
    void fetchOwnProfile().then((result) => {
      if (!current) return;
      if (result.ok) {
        dispatch({ type: 'loaded', profile: result.data, draft: restorableDraft(result.data.username, result.data.document) });
      } else if (result.error.statusCode === 401) {
        dispatch({ type: 'failed', message: SESSION_ENDED_MESSAGE });
        void refreshSession(); // the session ended: the page's gate sends the visitor to /login
      } else {
        dispatch({ type: 'failed', message: result.error.statusCode === 0 ? result.error.message : LOAD_FAILED_MESSAGE });
      }
    });
    return () => {
      current = false;
    };
  }, [loadCount]);

  const ready = state.status === 'ready' ? state : null;
  const username = ready?.account.username;
  const saved = ready?.saved;
  const draft = ready?.draft;
  // Every edit is mirrored into browser storage (spec: profile data held locally, updated on every edit).
  useEffect(() => {
    if (username !== undefined && saved && draft) storeDraft({ username, base: saved, document: draft });
  }, [username, saved, draft]);

  const dirty = ready ? !sameDocument(ready.saved, ready.draft) : false;

  const reload = useCallback(() => {
    dispatch({ type: 'loading' });
    setLoadCount((count) => count + 1);
  }, []);
  const edit = useCallback((change: (draft: ProfileDocument) => ProfileDocument, clear: string) => {
    dispatch({ type: 'edit', change, clear });
  }, []);
  const setField = useCallback(<K extends keyof ProfileDocument>(key: K, value: ProfileDocument[K]) => {
    dispatch({ type: 'edit', change: (current) => ({ ...current, [key]: value }), clear: key });
  }, []);
  const imageStored = useCallback((field: ImmediateImageField, url: string) => {
    dispatch({ type: 'imageStored', field, url });
  }, []);
  const discardRestored = useCallback(() => dispatch({ type: 'discard' }), []);

  const save = async (): Promise<SaveOutcome> => {
    if (!ready || saving) return null;
    let document = ready.draft;
    const locked = lockedContent(document, ready.account.membership);
    if (locked.length > 0) {
      if (!(await confirm({ title: lockedQuestion(ready.account.membership, locked) }))) return null;
      document = withoutLocked(document, locked);
      const kept = document;
      dispatch({ type: 'edit', change: () => kept, clear: '_form' });
    }
    const checked = validateDocument(document);
    if (!checked.ok) {
      dispatch({ type: 'errors', errors: checked.errors });
      return { ok: false, message: FIX_FIELDS_MESSAGE, errors: checked.errors };
    }
    setSaving(true);
    const result = await saveProfile(checked.document);
    setSaving(false);
    if (result.ok) {
      dispatch({ type: 'saved', profile: result.data, sent: document });
      return { ok: true, message: PROFILE_UPDATED };
    }
    const { error } = result;
    if (error.statusCode === 401) {
      void refreshSession();
      return { ok: false, message: SESSION_ENDED_MESSAGE, errors: {} };
    }
    const errors = error.statusCode === 400 ? errorsFromServer(error.fieldErrors) : {};
    dispatch({ type: 'errors', errors });
    return { ok: false, message: error.message, errors };
  };

  const changeSettings = async (change: { isPublic?: boolean; membership?: Membership }): Promise<SettingsOutcome> => {
    if (!ready) return { ok: false, message: LOAD_FAILED_MESSAGE };
    const result = await saveSettings({
      isPublic: change.isPublic ?? ready.account.isPublic,
      membership: change.membership ?? ready.account.membership,
    });
    if (result.ok) {
      dispatch({ type: 'settings', profile: result.data });
      return { ok: true };
    }
    if (result.error.statusCode === 401) {
      void refreshSession();
      return { ok: false, message: SESSION_ENDED_MESSAGE };
    }
    return { ok: false, message: result.error.message };
  };

  const renamed = useCallback((names: { firstName: string; lastName: string }) => dispatch({ type: 'renamed', ...names }), []);

  const membershipChanged = useCallback((membership: Membership) => {
    void (async () => {
      for (let poll = 0; poll < MEMBERSHIP_POLLS; poll++) {
        const result = await fetchOwnProfile();
        if (result.ok && result.data.membership === membership) {
          dispatch({ type: 'settings', profile: result.data });
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, MEMBERSHIP_POLL_MS));
      }
    })();
  }, []);

  return { state, dirty, saving, reload, edit, setField, imageStored, discardRestored, save, changeSettings, renamed, membershipChanged };
}

function lockedQuestion(membership: Membership, locked: readonly LockedFeature[]): string {
  const names = locked.map((feature) => LockedFeatureNames[feature]);
  const list = names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1) ?? ''}` : (names[0] ?? '');
  return `Your ${membership} membership does not include ${list}. Save without them? They will be removed from your profile.`;
}

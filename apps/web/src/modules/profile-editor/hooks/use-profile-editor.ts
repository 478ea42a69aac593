import { confirm } from '@digicard/ui';
import type { Membership, ProfileDocument } from '@digicard/contracts';
import { useCallback, useEffect, useReducer, useState } from 'react';
import { refreshSession } from '../../session/utils/session-actions';
import { sessionStore } from '../../session/utils/session-store';
import { fetchOwnProfile, saveProfile, saveSettings } from '../api/profile';
import { restorableDraft, storeDraft } from '../utils/draft-storage';
import {
  editorReducer,
  INITIAL_EDITOR_STATE,
  isDirty,
  lockedQuestion,
  planSave,
  saveErrors,
  type EditorState,
  type ImmediateImageField,
} from '../utils/editor-state';
import { lockedContent } from '../utils/document';
import { FIX_FIELDS_MESSAGE, type FieldErrors } from '../utils/validation';

export const PROFILE_UPDATED = 'Profile is updated';
export const PROFILE_NOT_UPDATED = 'Profile not updated';
export const SESSION_ENDED_MESSAGE = 'Your session has ended. Please log in again; your changes are kept in this browser.';
export const LOAD_FAILED_MESSAGE = 'We could not load your profile. Please try again in a minute.';

export type { ImmediateImageField, ProfileAccount } from '../utils/editor-state';

export type SaveOutcome =
  | { ok: true; message: string }
  | { ok: false; message: string; errors: FieldErrors }
  /** The owner chose not to save (kept the content their membership does not include). */
  | null;

export type SettingsOutcome = { ok: true } | { ok: false; message: string };

export interface ProfileEditor {
  state: EditorState;
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
  const [state, dispatch] = useReducer(editorReducer, INITIAL_EDITOR_STATE);
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
  // Never once signed out: a profile read that lands after Sign Out must not write back what sign-out removed.
  useEffect(() => {
    if (sessionStore.get().status !== 'signed-in') return;
    if (username !== undefined && saved && draft) storeDraft({ username, base: saved, document: draft });
  }, [username, saved, draft]);

  const dirty = isDirty(state);

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
    // Locked content is left out only if the owner agrees (the shared dialog answers asynchronously; planSave stays pure).
    const locked = lockedContent(ready.draft, ready.account.membership);
    const agreed =
      locked.length === 0 ||
      (await confirm({ title: lockedQuestion(ready.account.membership, locked), confirmLabel: 'Save without them' }));
    const plan = planSave(ready.draft, ready.account.membership, () => agreed);
    if (plan.kind === 'cancelled') return null;
    const { kept } = plan;
    if (kept) dispatch({ type: 'edit', change: () => kept, clear: '_form' });
    if (plan.kind === 'invalid') {
      dispatch({ type: 'errors', errors: plan.errors });
      return { ok: false, message: FIX_FIELDS_MESSAGE, errors: plan.errors };
    }
    setSaving(true);
    const result = await saveProfile(plan.payload);
    setSaving(false);
    if (result.ok) {
      dispatch({ type: 'saved', profile: result.data, sent: plan.sent });
      return { ok: true, message: PROFILE_UPDATED };
    }
    const { error } = result;
    if (error.statusCode === 401) {
      void refreshSession();
      return { ok: false, message: SESSION_ENDED_MESSAGE, errors: {} };
    }
    const errors = saveErrors(error);
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

import { confirm } from '@digicard/ui';
import { ProfileDocumentSchema, type ApiError, type Membership, type OwnProfile, type ProfileDocument } from '@digicard/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useState } from 'react';
import { useWatch, type FieldErrors as FormErrors, type Path, type UseFormSetError } from 'react-hook-form';
import { ApiQueryError } from '../../api/query-client';
import { failureMessage, queryFnOf, type Loaded } from '../../api/use-owner-data';
import { useContractForm } from '../../forms/hooks/use-contract-form';
import { applyApiError } from '../../forms/utils/apply-api-error';
import { refreshSession } from '../../session/utils/session-actions';
import { sessionStore } from '../../session/utils/session-store';
import { fetchOwnProfile, saveProfile, saveSettings } from '../api/profile';
import { restorableDraft, storeDraft } from '../utils/draft-storage';
import { lockedContent, lockedQuestion, sameDocument, withoutLocked } from '../utils/document';
import { fieldErrorsOf, FIX_FIELDS_MESSAGE, type FieldErrors } from '../utils/validation';

export const PROFILE_UPDATED = 'Profile is updated';
export const PROFILE_NOT_UPDATED = 'Profile not updated';
export const SESSION_ENDED_MESSAGE = 'Your session has ended. Please log in again; your changes are kept in this browser.';
export const LOAD_FAILED_MESSAGE = 'We could not load your profile. Please try again in a minute.';

/** The owner's account facts the editor shows and the preview needs (everything of OwnProfile but the document). */
export type ProfileAccount = Omit<OwnProfile, 'document'>;

/** The image fields the server saves into the profile as soon as they are uploaded. */
export type ImmediateImageField = 'profileImage' | 'profileBackground' | 'businessLogo';

export type SaveOutcome =
  | { ok: true; message: string }
  | { ok: false; message: string; errors: FieldErrors }
  /** The owner chose not to save (kept the content their membership does not include). */
  | null;

export type SettingsOutcome = { ok: true } | { ok: false; message: string };

/** The editor's queries: the owner's own profile (GET /api/profile). */
export const ProfileQueries = {
  own: ['profile'],
} as const;

/** How often, and how many times, the profile is read again until profiles has heard of a new tier. */
const MEMBERSHIP_POLL_MS = 1000;
const MEMBERSHIP_POLLS = 30;

export interface OwnProfileQuery {
  state: Loaded<OwnProfile>;
  /** Reads the profile again from "Loading..." (the load-failed message's Try again). */
  retry: () => void;
  /** A change of the profile as last read (what a save or a settings change answered). */
  update: (change: (profile: OwnProfile) => OwnProfile) => void;
  /**
   * Payments says the tier is now `membership` (a PayFast payment confirmed while Billing was open): the profile is
   * read again until profiles agrees, so every section (and the preview) shows the new tier without a reload.
   */
  awaitMembership: (membership: Membership) => void;
}

/**
 * The owner's profile, a TanStack query (`ProfileQueries.own`): "Loading..." until read, then the profile; a failed
 * read says so (a 401: the session ended, and it is read again so the page's gate sends the visitor to /login).
 * Not kept once the editor closes (`gcTime` 0): the editor always starts from a fresh read, which a draft left in
 * this browser is restored against. A read again while it is shown (polling) that fails leaves the profile shown.
 */
export function useOwnProfile(): OwnProfileQuery {
  const client = useQueryClient();
  // The tier being waited for, and how many reads the query had made when the wait began.
  const [awaited, setAwaited] = useState<{ membership: Membership; from: number } | null>(null);
  const query = useQuery<OwnProfile, Error>({
    queryKey: ProfileQueries.own,
    queryFn: queryFnOf<OwnProfile>(fetchOwnProfile),
    gcTime: 0,
    refetchIntervalInBackground: true,
    refetchInterval: ({ state }) =>
      awaited &&
      state.data?.membership !== awaited.membership &&
      state.dataUpdateCount + state.errorUpdateCount - awaited.from < MEMBERSHIP_POLLS
        ? MEMBERSHIP_POLL_MS
        : false,
  });

  const state: Loaded<OwnProfile> =
    query.data !== undefined
      ? { status: 'loaded', value: query.data }
      : query.status === 'error'
        ? { status: 'failed', message: loadFailure(query.error) }
        : { status: 'loading' };

  const retry = useCallback(() => void client.resetQueries({ queryKey: ProfileQueries.own, exact: true }), [client]);
  const update = useCallback(
    (change: (profile: OwnProfile) => OwnProfile) =>
      client.setQueryData<OwnProfile>(ProfileQueries.own, (shown) => (shown === undefined ? shown : change(shown))),
    [client],
  );
  const awaitMembership = useCallback(
    (membership: Membership) => {
      const read = client.getQueryState(ProfileQueries.own);
      setAwaited({ membership, from: (read?.dataUpdateCount ?? 0) + (read?.errorUpdateCount ?? 0) });
      void client.refetchQueries({ queryKey: ProfileQueries.own, exact: true });
    },
    [client],
  );
  return { state, retry, update, awaitMembership };
}

const loadFailure = (error: Error): string =>
  error instanceof ApiQueryError && error.apiError.statusCode === 401 ? SESSION_ENDED_MESSAGE : failureMessage(error, LOAD_FAILED_MESSAGE);

export interface ProfileEditor {
  account: ProfileAccount;
  /** The document as the server last confirmed it. */
  saved: ProfileDocument;
  /** The document being edited: the form's values (what the preview shows). */
  draft: ProfileDocument;
  /** The draft came back from browser storage (unsaved edits of an earlier visit). */
  restored: boolean;
  errors: FieldErrors;
  dirty: boolean;
  saving: boolean;
  /** Changes the draft; errors at `clear` (a path, or a prefix of paths) are taken away (checked again after a Save). */
  edit: (change: (draft: ProfileDocument) => ProfileDocument, clear: string) => void;
  setField: <K extends keyof ProfileDocument>(key: K, value: ProfileDocument[K]) => void;
  imageStored: (field: ImmediateImageField, url: string) => void;
  discardRestored: () => void;
  save: () => Promise<SaveOutcome>;
  changeSettings: (settings: { isPublic?: boolean; membership?: Membership }) => Promise<SettingsOutcome>;
  /** The owner's names changed (Settings, Account): the preview shows them. */
  renamed: (names: { firstName: string; lastName: string }) => void;
  membershipChanged: OwnProfileQuery['awaitMembership'];
}

const accountOf = ({ document: _document, ...account }: OwnProfile): ProfileAccount => account;

/**
 * The editor of a loaded profile: the draft is a react-hook-form form checked by the contract schema
 * (ProfileDocumentSchema, as the server checks it) on Save, then each edited field as the owner corrects it. The draft
 * starts from the profile, or from unsaved edits left in this browser, and is mirrored into localStorage `userData`
 * on every edit. Save is PUT /api/profile with the whole (trimmed) document; settings are written at once.
 */
export function useProfileEditor(own: OwnProfileQuery, profile: OwnProfile): ProfileEditor {
  const saved = profile.document;
  const [initial] = useState(() => {
    const draft = restorableDraft(profile.username, saved);
    return { draft: draft ?? saved, restored: draft !== null };
  });
  const [restored, setRestored] = useState(initial.restored);
  const form = useContractForm(ProfileDocumentSchema, initial.draft);
  const { control, formState } = form;
  const draft = useWatch({ control }) as ProfileDocument;
  const errors = fieldErrorsOf(formState.errors);
  const saving = formState.isSubmitting;
  const checking = formState.isSubmitted;
  const dirty = !sameDocument(saved, draft);

  // Every edit is mirrored into browser storage (spec: profile data held locally, updated on every edit).
  // Never once signed out: a profile read that lands after Sign Out must not write back what sign-out removed.
  const { username } = profile;
  useEffect(() => {
    if (sessionStore.get().status !== 'signed-in') return;
    storeDraft({ username, base: saved, document: draft });
  }, [username, saved, draft]);

  const { update } = own;
  const { setValue, getValues, clearErrors, trigger } = form;
  /** The draft's top-level fields that differ in `next` take its values. */
  const setDocument = useCallback(
    (next: ProfileDocument) => {
      const current = getValues();
      for (const key of Object.keys(next) as Array<keyof ProfileDocument>) {
        if (next[key] !== current[key]) setValue(key, next[key]);
      }
    },
    [getValues, setValue],
  );
  const edit = useCallback(
    (change: (draft: ProfileDocument) => ProfileDocument, clear: string) => {
      clearErrors(clear as Path<ProfileDocument>);
      setDocument(change(getValues()));
      // After a Save, what the owner corrects is checked again at once (what is still wrong says so).
      if (checking) void trigger(clear as Path<ProfileDocument>);
    },
    [checking, clearErrors, getValues, setDocument, trigger],
  );
  const setField = useCallback(
    <K extends keyof ProfileDocument>(key: K, value: ProfileDocument[K]) => edit((current) => ({ ...current, [key]: value }), key),
    [edit],
  );
  const imageStored = useCallback(
    (field: ImmediateImageField, url: string) => {
      // The server saved it already: it is part of the saved document too, so it does not make the editor dirty.
      update((shown) => ({ ...shown, document: { ...shown.document, [field]: url } }));
      setField(field, url);
    },
    [setField, update],
  );
  const discardRestored = useCallback(() => {
    form.reset(saved);
    setRestored(false);
  }, [form, saved]);

  async function send(payload: ProfileDocument, sent: ProfileDocument): Promise<SaveOutcome> {
    const result = await saveProfile(payload);
    if (result.ok) {
      update(() => result.data);
      // Edits made while the request was on its way stay; otherwise the server's (trimmed) document is shown.
      const current = getValues();
      form.reset(sameDocument(current, sent) ? result.data.document : current);
      setRestored(false);
      return { ok: true, message: PROFILE_UPDATED };
    }
    const { error } = result;
    if (error.statusCode === 401) {
      void refreshSession();
      return { ok: false, message: SESSION_ENDED_MESSAGE, errors: {} };
    }
    return placeSaveError(error, form.setError);
  }

  const save = async (): Promise<SaveOutcome> => {
    if (saving) return null;
    // Locked content is left out only if the owner agrees (the shared dialog answers asynchronously).
    const { membership } = profile;
    const locked = lockedContent(getValues(), membership);
    if (locked.length > 0) {
      const agreed = await confirm({ title: lockedQuestion(membership, locked), confirmLabel: 'Save without them' });
      if (!agreed) return null;
      setDocument(withoutLocked(getValues(), locked));
    }
    let outcome: SaveOutcome = null;
    // The draft as sent (an edit replaces a field's value, never changes it in place).
    const sent = { ...getValues() };
    await form.handleSubmit(
      async (payload) => {
        outcome = await send(payload, sent);
      },
      (invalid: FormErrors<ProfileDocument>) => {
        outcome = { ok: false, message: FIX_FIELDS_MESSAGE, errors: fieldErrorsOf(invalid) };
      },
    )();
    return outcome;
  };

  const changeSettings = async (change: { isPublic?: boolean; membership?: Membership }): Promise<SettingsOutcome> => {
    const result = await saveSettings({
      isPublic: change.isPublic ?? profile.isPublic,
      membership: change.membership ?? profile.membership,
    });
    if (result.ok) {
      const { membership, isPublic, updatedAt } = result.data;
      update((shown) => ({ ...shown, membership, isPublic, updatedAt }));
      return { ok: true };
    }
    if (result.error.statusCode === 401) {
      void refreshSession();
      return { ok: false, message: SESSION_ENDED_MESSAGE };
    }
    return { ok: false, message: result.error.message };
  };

  // Identity has the new names; the preview shows them at once (profiles' copy follows from identity's event).
  const renamed = useCallback(
    ({ firstName, lastName }: { firstName: string; lastName: string }) => update((shown) => ({ ...shown, firstName, lastName })),
    [update],
  );

  return {
    account: accountOf(profile),
    saved,
    draft,
    restored,
    errors,
    dirty,
    saving,
    edit,
    setField,
    imageStored,
    discardRestored,
    save,
    changeSettings,
    renamed,
    membershipChanged: own.awaitMembership,
  };
}

/**
 * A refused save: a 400's field errors (keyed `document.websiteLinks.0.url`) go on their fields of the form
 * (`applyApiError`), an error about the whole document is the message; any other refusal says the server's message.
 */
export function placeSaveError(
  error: ApiError,
  setError: UseFormSetError<ProfileDocument>,
): { ok: false; message: string; errors: FieldErrors } {
  const fieldErrors: Record<string, string[]> = {};
  for (const [key, messages] of Object.entries(error.fieldErrors ?? {})) {
    fieldErrors[key === 'document' ? key : key.replace(/^document\./, '')] = [...messages];
  }
  const errors: Record<string, string> = {};
  if (error.statusCode === 400) {
    for (const [path, [message]] of Object.entries(fieldErrors)) if (message && path !== 'document') errors[path] ??= message;
  }
  const fields = Object.keys(errors) as Array<Path<ProfileDocument>>;
  const message = applyApiError({ ...error, fieldErrors }, fields, setError, error.message) ?? error.message;
  return { ok: false, message, errors };
}

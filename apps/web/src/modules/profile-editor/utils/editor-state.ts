import type { Membership, OwnProfile, ProfileDocument } from '@digicard/contracts';
import { lockedContent, LockedFeatureNames, sameDocument, withoutLocked, type LockedFeature } from './document';
import { errorsFromServer, validateDocument, withoutErrors, type FieldErrors } from './validation';

/**
 * The profile editor's state and what Save does with it, without React (useProfileEditor holds the state and
 * makes the requests; this decides everything else, so that unit tests can check it).
 */

/** The owner's account facts the editor shows and the preview needs (everything of OwnProfile but the document). */
export type ProfileAccount = Omit<OwnProfile, 'document'>;

/** The image fields the server saves into the profile as soon as they are uploaded. */
export type ImmediateImageField = 'profileImage' | 'profileBackground' | 'businessLogo';

export type ReadyState = {
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
export type EditorState = { status: 'loading' } | { status: 'failed'; message: string } | ReadyState;

export type EditorAction =
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

export const INITIAL_EDITOR_STATE: EditorState = { status: 'loading' };

const accountOf = ({ document: _document, ...account }: OwnProfile): ProfileAccount => account;

export function editorReducer(state: EditorState, action: EditorAction): EditorState {
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
function change(state: ReadyState, action: Exclude<EditorAction, { type: 'loading' | 'failed' | 'loaded' }>): ReadyState {
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

/** Unsaved changes: the draft differs from what the server last confirmed (whatever the order of its keys). */
export const isDirty = (state: EditorState): boolean => state.status === 'ready' && !sameDocument(state.saved, state.draft);

/** What Save does with the draft, before any request. */
export type SavePlan =
  /** The owner chose to keep the content their membership does not include: nothing is saved. */
  | { kind: 'cancelled' }
  /** The draft fails the server's checks: these errors are shown, nothing is sent. */
  | { kind: 'invalid'; errors: FieldErrors; kept: ProfileDocument | null }
  /**
   * `payload` goes to PUT /api/profile (trimmed by the schema); `sent` is the draft it came from (the editor keeps
   * later edits when the answer arrives); `kept` is the draft without locked content, when the owner agreed to it.
   */
  | { kind: 'send'; payload: ProfileDocument; sent: ProfileDocument; kept: ProfileDocument | null };

/**
 * Plans a save of `draft` for an owner on `membership`: content the membership does not include is left out only
 * if the owner agrees (`confirm` is asked the question), then the document is checked as the server checks it.
 */
export function planSave(draft: ProfileDocument, membership: Membership, confirm: (question: string) => boolean): SavePlan {
  let document = draft;
  let kept: ProfileDocument | null = null;
  const locked = lockedContent(document, membership);
  if (locked.length > 0) {
    if (!confirm(lockedQuestion(membership, locked))) return { kind: 'cancelled' };
    document = withoutLocked(document, locked);
    kept = document;
  }
  const checked = validateDocument(document);
  if (!checked.ok) return { kind: 'invalid', errors: checked.errors, kept };
  return { kind: 'send', payload: checked.document, sent: document, kept };
}

/** The question asked before locked content is left out: "Your DigiShare membership does not include a, b and c. ...". */
export function lockedQuestion(membership: Membership, locked: readonly LockedFeature[]): string {
  const names = locked.map((feature) => LockedFeatureNames[feature]);
  const list = names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1) ?? ''}` : (names[0] ?? '');
  return `Your ${membership} membership does not include ${list}. Save without them? They will be removed from your profile.`;
}

/** The field errors a refused save shows: a 400's, in the editor's paths; none for any other refusal. */
export function saveErrors(error: {
  statusCode: number;
  fieldErrors?: Readonly<Record<string, readonly string[]>> | undefined;
}): FieldErrors {
  return error.statusCode === 400 ? errorsFromServer(error.fieldErrors) : {};
}

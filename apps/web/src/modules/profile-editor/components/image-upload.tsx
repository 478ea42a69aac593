import type { ImagePurpose } from '@digicard/contracts';
import { Button, classNames, FormAlert, notice, VisuallyHidden } from '@digicard/ui';
import { useState, type ChangeEvent } from 'react';
import { refreshSession } from '../../session/utils/session-actions';
import { uploadImage } from '../api/profile';
import { checkImage } from '../utils/image-check';
import { fieldId } from '../utils/validation';

export const UPLOADING_TEXT = 'Uploading...';
export const USER_NOT_LOGGED_IN = 'User not logged in';
export const REMEMBER_TO_SAVE = 'Remember to Save.';

/** The spec's texts (section 8): '{field} uploaded and saved successfully!' and 'Failed to upload {field}.' */
export const uploadedAndSaved = (field: string): string => `${field} uploaded and saved successfully!`;
export const uploadedRememberToSave = (field: string): string => `${field} uploaded. ${REMEMBER_TO_SAVE}`;
export const failedToUpload = (field: string): string => `Failed to upload ${field.toLowerCase()}.`;

interface ImageUploadProps {
  /** The file input's label. */
  label: string;
  /** How messages name the image, capitalised: "Profile image", "Cover image", "Gallery image". */
  field: string;
  purpose: ImagePurpose;
  /** The path the image belongs to (gives the control's id and its error). */
  path: string;
  hint?: string | undefined;
  /** The image shown now, if any (a small thumbnail above the input). */
  currentUrl?: string | undefined;
  /** True when the server saves the upload into the profile at once (profile image, cover, logo). */
  savedAtOnce: boolean;
  error?: string | undefined;
  disabled?: boolean;
  onStored: (url: string) => void;
  /** Offers "Remove" for the current image (the removal is saved with Save). */
  onRemove?: (() => void) | undefined;
  className?: string;
}

type Outcome = { ok: true; message: string } | { ok: false; message: string };

/**
 * A file input that uploads at once: checked here first (image, at most 2 MB), then POSTed as the raw file.
 * While it uploads: "Uploading..." and the input is disabled. The spec's alerts, and the same text beside the input.
 */
export function ImageUpload(props: ImageUploadProps) {
  const { label, field, purpose, path, hint, currentUrl, savedAtOnce, error, disabled, onStored, onRemove, className } = props;
  const [uploading, setUploading] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const id = fieldId(path);
  const statusId = `${id}-status`;
  const describedBy = [hint ? `${id}-hint` : null, error ? `${id}-error` : null, statusId].filter(Boolean).join(' ');

  async function upload(event: ChangeEvent<HTMLInputElement>) {
    const input = event.currentTarget;
    const file = input.files?.[0];
    if (!file) return;
    const problem = checkImage(file);
    if (problem) {
      input.value = '';
      setOutcome({ ok: false, message: problem });
      void notice({ title: problem });
      return;
    }
    setOutcome(null);
    setUploading(true);
    const result = await uploadImage(purpose, file);
    setUploading(false);
    input.value = '';
    if (result.ok) {
      onStored(result.data.url);
      const message = savedAtOnce ? uploadedAndSaved(field) : uploadedRememberToSave(field);
      setOutcome({ ok: true, message });
      void notice({ title: message });
      return;
    }
    if (result.error.statusCode === 401) {
      setOutcome({ ok: false, message: USER_NOT_LOGGED_IN });
      void notice({ title: USER_NOT_LOGGED_IN });
      void refreshSession();
      return;
    }
    const message = `${failedToUpload(field)} ${result.error.message}`;
    setOutcome({ ok: false, message });
    void notice({ title: failedToUpload(field), message: result.error.message });
  }

  return (
    <div className={classNames('ui-field pe-upload', error && 'ui-field--invalid', className)}>
      <label className="ui-field__label" htmlFor={id}>
        {label}
      </label>
      {hint ? (
        <p id={`${id}-hint`} className="ui-field__hint">
          {hint}
        </p>
      ) : null}
      {currentUrl ? (
        <div className="pe-upload__current">
          <img className="pe-upload__thumb" src={currentUrl} alt={`Current ${field.toLowerCase()}`} width={64} height={64} />
          {onRemove ? (
            <Button variant="secondary" className="pe-small-button" disabled={uploading} onClick={onRemove}>
              Remove <VisuallyHidden>{field.toLowerCase()}</VisuallyHidden>
            </Button>
          ) : null}
        </div>
      ) : null}
      <input
        id={id}
        type="file"
        accept="image/*"
        className="pe-upload__input"
        disabled={uploading || disabled}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        onChange={(event) => void upload(event)}
      />
      <p id={statusId} className="pe-upload__status" role="status">
        {uploading ? UPLOADING_TEXT : outcome?.ok ? outcome.message : ''}
      </p>
      {outcome && !outcome.ok ? <FormAlert className="pe-upload__alert">{outcome.message}</FormAlert> : null}
      {error ? (
        <p id={`${id}-error`} className="ui-field__error">
          {error}
        </p>
      ) : null}
    </div>
  );
}

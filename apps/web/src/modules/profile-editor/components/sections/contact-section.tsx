import { TextArea, TextField } from '@digicard/ui';
import { RangeField } from '../fields';
import { ImageUpload } from '../image-upload';
import { fieldId } from '../../utils/validation';
import type { DocumentSectionProps } from './section-props';

export const PROFILE_IMAGE_HINT = 'Max 500 x 500 px. JPG, PNG or WebP, up to 2MB.';

/** Contact Information: title, about me, phone, and the profile image with its size. */
export function ContactSection({ doc, errors, setField, imageStored }: DocumentSectionProps) {
  return (
    <>
      <TextField
        id={fieldId('title')}
        label="Title"
        hint="What you do, e.g. Sales Manager or Photographer."
        value={doc.title}
        maxLength={120}
        autoComplete="organization-title"
        error={errors['title']}
        onChange={(event) => setField('title', event.currentTarget.value)}
      />
      <TextArea
        id={fieldId('profileBio')}
        label="About me"
        hint="Shown behind the About Me button of your profile."
        value={doc.profileBio}
        maxLength={2000}
        rows={6}
        error={errors['profileBio']}
        onChange={(event) => setField('profileBio', event.currentTarget.value)}
      />
      <TextField
        id={fieldId('tel')}
        label="Phone"
        type="tel"
        inputMode="tel"
        autoComplete="tel"
        hint="e.g. 082 123 4567 or +27 82 123 4567"
        value={doc.tel}
        maxLength={16}
        error={errors['tel']}
        onChange={(event) => setField('tel', event.currentTarget.value)}
      />
      <ImageUpload
        label="Profile image"
        field="Profile image"
        purpose="profileImage"
        path="profileImage"
        hint={PROFILE_IMAGE_HINT}
        currentUrl={doc.profileImage}
        savedAtOnce
        error={errors['profileImage']}
        onStored={(url) => imageStored('profileImage', url)}
        onRemove={() => setField('profileImage', '')}
      />
      <RangeField
        label="Profile image width"
        path="profileImageWidth"
        value={doc.profileImageWidth}
        min={0}
        max={100}
        step={5}
        unit="%"
        unitName="percent"
        error={errors['profileImageWidth']}
        onChange={(value) => setField('profileImageWidth', value)}
      />
      <RangeField
        label="Profile image height"
        path="profileImageHeight"
        value={doc.profileImageHeight}
        min={0}
        max={400}
        step={10}
        unit=" px"
        unitName="pixels"
        error={errors['profileImageHeight']}
        onChange={(value) => setField('profileImageHeight', value)}
      />
    </>
  );
}

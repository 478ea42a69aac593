import { UpgradeMessages } from '@digicard/contracts';
import { can } from '@digicard/domain';
import { Button, VisuallyHidden } from '@digicard/ui';
import { FieldError, UpgradeNotice } from '../fields';
import { ImageUpload } from '../image-upload';
import { fieldId } from '../../utils/validation';
import { changeThenFocus, type DocumentSectionProps } from './section-props';

export const MAX_GALLERY_IMAGES = 12;
export const GALLERY_HINT = 'Max 800 x 300 px. JPG, PNG or WebP, up to 2MB.';

/** Gallery (DigiGold): upload images (added to the draft: Save keeps them), remove. Other tiers: the upgrade message. */
export function GallerySection({ doc, errors, membership, edit }: DocumentSectionProps) {
  if (!can(membership, 'gallery')) {
    return (
      <>
        <UpgradeNotice>{UpgradeMessages.gallery}</UpgradeNotice>
        {doc.gallery.length > 0 ? (
          <p className="pe-note">Your saved gallery is not shown on your profile with your current membership.</p>
        ) : null}
      </>
    );
  }
  const images = doc.gallery;
  const full = images.length >= MAX_GALLERY_IMAGES;
  const remove = (index: number) =>
    changeThenFocus(() => edit((d) => ({ ...d, gallery: d.gallery.filter((_, i) => i !== index) }), 'gallery'), 'gallery.add');

  return (
    <>
      <ImageUpload
        label="Add a gallery image"
        field="Gallery image"
        purpose="gallery"
        path="gallery.add"
        hint={full ? `At most ${MAX_GALLERY_IMAGES} gallery images.` : GALLERY_HINT}
        savedAtOnce={false}
        disabled={full}
        onStored={(url) => edit((d) => ({ ...d, gallery: [...d.gallery, { imageUrl: url }] }), 'gallery')}
      />
      <FieldError id="pe-gallery-error" error={errors['gallery']} />
      {images.length === 0 ? (
        <p className="pe-list__empty">No gallery images yet.</p>
      ) : (
        <ul className="pe-gallery" aria-label="Gallery images">
          {images.map((image, index) => (
            <li key={`${index}-${image.imageUrl}`} className="pe-gallery__item">
              {image.imageUrl ? (
                <img src={image.imageUrl} alt={`Gallery image ${index + 1}`} width={160} height={120} loading="lazy" />
              ) : (
                <span className="pe-gallery__blank">{`Gallery image ${index + 1}: no image`}</span>
              )}
              <Button
                id={fieldId(`gallery.${index}.imageUrl`)}
                variant="secondary"
                className="pe-small-button"
                onClick={() => remove(index)}
              >
                Remove <VisuallyHidden>{`gallery image ${index + 1}`}</VisuallyHidden>
              </Button>
              <FieldError id={fieldId(`gallery.${index}.imageUrl-error`)} error={errors[`gallery.${index}.imageUrl`]} />
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

import type { ProfileDocument } from '@digicard/contracts';
import { ColourField, RangeField } from '../fields';
import { ImageUpload } from '../image-upload';
import type { DocumentSectionProps } from './section-props';

export const COVER_HINT = 'Max 800 x 300 px. JPG, PNG or WebP, up to 2MB.';

type ColourKey = keyof Pick<
  ProfileDocument,
  | 'profileBackgroundColor'
  | 'mainFontColor'
  | 'profileBioFont'
  | 'profileBioBackground'
  | 'buttonBackgroundColor'
  | 'buttonFontColor'
  | 'buttonBorderColor'
  | 'dropdownFormsBackground'
  | 'sendBtnBackgroundColor'
  | 'sendBtnFontColor'
>;

/** The colour pickers, labelled as the product has always named them. */
export const ColourFields: ReadonlyArray<{ key: ColourKey; label: string }> = [
  { key: 'profileBackgroundColor', label: 'Background colour' },
  { key: 'mainFontColor', label: 'Main font colour' },
  { key: 'profileBioFont', label: 'Bio font colour' },
  { key: 'profileBioBackground', label: 'Bio background' },
  { key: 'buttonBackgroundColor', label: 'Button background' },
  { key: 'buttonFontColor', label: 'Button font colour' },
  { key: 'buttonBorderColor', label: 'Button border colour' },
  { key: 'dropdownFormsBackground', label: 'Form background' },
  { key: 'sendBtnBackgroundColor', label: 'Send button background' },
  { key: 'sendBtnFontColor', label: 'Send button font colour' },
];

/** Design: cover image and its opacity, the colours, and the buttons' border width. */
export function DesignSection({ doc, errors, setField, imageStored }: DocumentSectionProps) {
  return (
    <>
      <ImageUpload
        label="Cover image"
        field="Cover image"
        purpose="profileBackground"
        path="profileBackground"
        hint={COVER_HINT}
        currentUrl={doc.profileBackground}
        savedAtOnce
        error={errors['profileBackground']}
        onStored={(url) => imageStored('profileBackground', url)}
        onRemove={() => setField('profileBackground', '')}
      />
      <RangeField
        label="Cover opacity"
        path="opacityValue"
        value={doc.opacityValue}
        min={0}
        max={1}
        step={0.1}
        unit=""
        error={errors['opacityValue']}
        onChange={(value) => setField('opacityValue', value)}
      />
      <fieldset className="pe-colours">
        <legend className="pe-list__legend">Colours</legend>
        <div className="pe-colours__grid">
          {ColourFields.map(({ key, label }) => (
            <ColourField
              key={key}
              label={label}
              path={key}
              value={doc[key]}
              error={errors[key]}
              onChange={(value) => setField(key, value)}
            />
          ))}
        </div>
      </fieldset>
      <RangeField
        label="Button border width"
        path="buttonBorderWidth"
        value={doc.buttonBorderWidth}
        min={0}
        max={10}
        step={1}
        unit=" px"
        unitName="pixels"
        error={errors['buttonBorderWidth']}
        onChange={(value) => setField('buttonBorderWidth', value)}
      />
    </>
  );
}

import { UpgradeMessages } from '@digicard/contracts';
import { can } from '@digicard/domain';
import { Button, TextField, VisuallyHidden } from '@digicard/ui';
import { FieldError, RangeField, UpgradeNotice } from '../fields';
import { ImageUpload } from '../image-upload';
import { fieldId } from '../../utils/validation';
import { changeThenFocus, patchRow, type DocumentSectionProps } from './section-props';

export const MAX_WEBSITE_BUTTONS = 10;
const ADD_ID = 'pe-websiteLinks-add';

/** Business Information: business name, logo and its width, website buttons, and the video link (DigiGold). */
export function BusinessSection({ doc, errors, membership, setField, edit, imageStored }: DocumentSectionProps) {
  const links = doc.websiteLinks;

  const add = () =>
    changeThenFocus(
      () => edit((d) => ({ ...d, websiteLinks: [...d.websiteLinks, { buttonName: '', url: '' }] }), 'websiteLinks'),
      `websiteLinks.${links.length}.buttonName`,
    );
  const remove = (index: number) => {
    changeThenFocus(
      () => edit((d) => ({ ...d, websiteLinks: d.websiteLinks.filter((_, i) => i !== index) }), 'websiteLinks'),
      'websiteLinks.add',
    );
  };
  const change = (index: number, patch: Partial<(typeof links)[number]>, key: string) =>
    edit((d) => ({ ...d, websiteLinks: patchRow(d.websiteLinks, index, patch) }), `websiteLinks.${index}.${key}`);

  return (
    <>
      <TextField
        id={fieldId('businessName')}
        label="Business name"
        value={doc.businessName}
        maxLength={120}
        autoComplete="organization"
        error={errors['businessName']}
        onChange={(event) => setField('businessName', event.currentTarget.value)}
      />
      <ImageUpload
        label="Business logo"
        field="Business logo"
        purpose="businessLogo"
        path="businessLogo"
        hint="JPG, PNG or WebP, up to 2MB."
        currentUrl={doc.businessLogo}
        savedAtOnce
        error={errors['businessLogo']}
        onStored={(url) => imageStored('businessLogo', url)}
        onRemove={() => setField('businessLogo', '')}
      />
      <RangeField
        label="Logo width"
        path="businessLogoWidth"
        value={doc.businessLogoWidth}
        min={0}
        max={100}
        step={10}
        unit="%"
        unitName="percent"
        error={errors['businessLogoWidth']}
        onChange={(value) => setField('businessLogoWidth', value)}
      />

      <fieldset className="pe-list">
        <legend className="pe-list__legend">Website buttons</legend>
        <p className="ui-field__hint">Each button opens one of your web pages. Buttons without a name are not shown.</p>
        {links.length === 0 ? <p className="pe-list__empty">No website buttons yet.</p> : null}
        {links.map((link, index) => (
          <fieldset key={index} className="pe-row">
            <legend className="pe-row__legend">{`Website button ${index + 1}`}</legend>
            <div className="pe-row__fields">
              <TextField
                id={fieldId(`websiteLinks.${index}.buttonName`)}
                label="Button name"
                value={link.buttonName}
                maxLength={40}
                error={errors[`websiteLinks.${index}.buttonName`]}
                onChange={(event) => change(index, { buttonName: event.currentTarget.value }, 'buttonName')}
              />
              <TextField
                id={fieldId(`websiteLinks.${index}.url`)}
                label="URL"
                type="url"
                inputMode="url"
                autoComplete="url"
                placeholder="https://…"
                value={link.url}
                maxLength={2000}
                error={errors[`websiteLinks.${index}.url`]}
                onChange={(event) => change(index, { url: event.currentTarget.value }, 'url')}
              />
            </div>
            <Button variant="secondary" className="pe-small-button" onClick={() => remove(index)}>
              Remove <VisuallyHidden>{`website button ${index + 1}`}</VisuallyHidden>
            </Button>
          </fieldset>
        ))}
        <Button id={ADD_ID} variant="secondary" disabled={links.length >= MAX_WEBSITE_BUTTONS} onClick={add}>
          Add website button
        </Button>
        {links.length >= MAX_WEBSITE_BUTTONS ? <p className="ui-field__hint">{`At most ${MAX_WEBSITE_BUTTONS} website buttons.`}</p> : null}
        <FieldError id="pe-websiteLinks-error" error={errors['websiteLinks']} />
      </fieldset>

      {can(membership, 'video') ? (
        <TextField
          id={fieldId('videoLink')}
          label="Video link"
          type="url"
          inputMode="url"
          placeholder="https://…"
          hint="A YouTube or Vimeo link plays on your profile; any other link shows a Watch my video button."
          value={doc.videoLink}
          maxLength={2000}
          error={errors['videoLink']}
          onChange={(event) => setField('videoLink', event.currentTarget.value)}
        />
      ) : (
        <div className="pe-locked">
          <h3 className="pe-locked__title">Video link</h3>
          <UpgradeNotice>{UpgradeMessages.video}</UpgradeNotice>
          <FieldError id="pe-videoLink-error" error={errors['videoLink']} />
        </div>
      )}
    </>
  );
}

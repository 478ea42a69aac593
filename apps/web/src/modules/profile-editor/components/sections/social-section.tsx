import { SocialPlatforms, UpgradeMessages, type SocialPlatform } from '@digicard/contracts';
import { can } from '@digicard/domain';
import { SocialBadges } from '@digicard/profile-view';
import { Button, TextField, VisuallyHidden } from '@digicard/ui';
import { FieldError, SelectField, UpgradeNotice } from '../fields';
import { fieldId } from '../../utils/validation';
import { changeThenFocus, patchRow, type DocumentSectionProps } from './section-props';

export const WHATSAPP_HINT = 'https://wa.me/ followed by your number, e.g. https://wa.me/27821234567';
const PLATFORM_OPTIONS = SocialPlatforms.map((platform) => ({ value: platform, label: SocialBadges[platform].label }));

const URL_HINTS: Partial<Record<SocialPlatform, string>> = {
  whatsapp: WHATSAPP_HINT,
};

/** Social Links (DigiSilver and up): rows of platform and link. DigiShare sees the upgrade message only. */
export function SocialSection({ doc, errors, membership, edit }: DocumentSectionProps) {
  if (!can(membership, 'socialLinks')) return <UpgradeNotice>{UpgradeMessages.socialLinks}</UpgradeNotice>;
  const links = doc.socialLinks;
  const firstUnused = (): SocialPlatform => SocialPlatforms.find((p) => !links.some((link) => link.platform === p)) ?? 'facebook';

  const add = () =>
    changeThenFocus(
      () => edit((d) => ({ ...d, socialLinks: [...d.socialLinks, { platform: firstUnused(), url: '' }] }), 'socialLinks'),
      `socialLinks.${links.length}.platform`,
    );
  const remove = (index: number) =>
    changeThenFocus(
      () => edit((d) => ({ ...d, socialLinks: d.socialLinks.filter((_, i) => i !== index) }), 'socialLinks'),
      'socialLinks.add',
    );

  return (
    <fieldset className="pe-list">
      <legend className="pe-list__legend">Social media buttons</legend>
      {links.length === 0 ? <p className="pe-list__empty">No social links yet.</p> : null}
      {links.map((link, index) => {
        const name = SocialBadges[link.platform]?.label ?? 'Social link';
        return (
          <fieldset key={index} className="pe-row">
            <legend className="pe-row__legend">{`Social link ${index + 1}`}</legend>
            <div className="pe-row__fields">
              <SelectField
                label="Platform"
                path={`socialLinks.${index}.platform`}
                value={link.platform}
                options={PLATFORM_OPTIONS}
                error={errors[`socialLinks.${index}.platform`]}
                onChange={(value) =>
                  edit(
                    (d) => ({ ...d, socialLinks: patchRow(d.socialLinks, index, { platform: value as SocialPlatform }) }),
                    `socialLinks.${index}.platform`,
                  )
                }
              />
              <TextField
                id={fieldId(`socialLinks.${index}.url`)}
                label="URL"
                type="url"
                inputMode="url"
                placeholder="https://…"
                hint={URL_HINTS[link.platform]}
                value={link.url}
                maxLength={2000}
                error={errors[`socialLinks.${index}.url`]}
                onChange={(event) => {
                  const url = event.currentTarget.value;
                  edit((d) => ({ ...d, socialLinks: patchRow(d.socialLinks, index, { url }) }), `socialLinks.${index}.url`);
                }}
              />
            </div>
            <Button variant="secondary" className="pe-small-button" onClick={() => remove(index)}>
              Remove <VisuallyHidden>{`${name} link`}</VisuallyHidden>
            </Button>
          </fieldset>
        );
      })}
      <Button id={fieldId('socialLinks.add')} variant="secondary" disabled={links.length >= SocialPlatforms.length} onClick={add}>
        Add social link
      </Button>
      <FieldError id="pe-socialLinks-error" error={errors['socialLinks']} />
    </fieldset>
  );
}

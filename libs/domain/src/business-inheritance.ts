import type { ProfileDocument } from '@digicard/contracts';

/**
 * What a profile takes from the business it belongs to (spec sections 3 and 7): the styling and the business
 * content. A team member's own fields are the rest: title, bio, photo and its sizing, phone.
 */
export const InheritedFields = [
  'businessName',
  'businessLogo',
  'businessLogoWidth',
  'profileBackground',
  'opacityValue',
  'videoLink',
  'websiteLinks',
  'socialLinks',
  'gallery',
  'products',
  'profileBackgroundColor',
  'mainFontColor',
  'profileBioFont',
  'profileBioBackground',
  'buttonBackgroundColor',
  'buttonFontColor',
  'buttonBorderColor',
  'buttonBorderWidth',
  'dropdownFormsBackground',
  'sendBtnBackgroundColor',
  'sendBtnFontColor',
] as const satisfies ReadonlyArray<keyof ProfileDocument>;
export type InheritedField = (typeof InheritedFields)[number];

/** A member's document as the public sees it: their own fields, the business's for everything it decides. */
export function withBusiness(own: ProfileDocument, business: ProfileDocument | null): ProfileDocument {
  if (!business) return own;
  return { ...own, ...Object.fromEntries(InheritedFields.map((field) => [field, business[field]])) };
}

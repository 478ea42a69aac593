/** The editor's sections, in the order of the button bar (spec section 2; Teams for team leaders only). */
export const Sections = [
  { id: 'contact', label: 'Contact Information' },
  { id: 'business', label: 'Business Information' },
  { id: 'social', label: 'Social Links' },
  { id: 'products', label: 'Products' },
  { id: 'gallery', label: 'Gallery' },
  { id: 'design', label: 'Design' },
  { id: 'qr', label: 'QR Code' },
  { id: 'settings', label: 'Settings' },
  { id: 'leads', label: 'Leads' },
  { id: 'analytics', label: 'Analytics' },
  { id: 'crm', label: 'CRM integration' },
  { id: 'teams', label: 'Teams' },
  { id: 'billing', label: 'Billing' },
  { id: 'cart', label: 'Accessories Cart' },
  { id: 'orders', label: 'Orders' },
] as const;

export type SectionId = (typeof Sections)[number]['id'];

export const DEFAULT_SECTION: SectionId = 'contact';

export type EditorSection = (typeof Sections)[number];

/** The sections a role sees: Teams is for team leaders only. */
export const sectionsFor = (role: string | undefined): readonly EditorSection[] =>
  Sections.filter((section) => section.id !== 'teams' || role === 'teamLeader');

/** The section a link names (`?section=billing`), if this role sees it. */
export const sectionNamed = (name: string | null, role: string | undefined): SectionId | null =>
  sectionsFor(role).find((section) => section.id === name)?.id ?? null;

/** Sections whose every field a team rep's leader owns (business inheritance): shown locked to a rep. */
export const BUSINESS_SECTIONS: ReadonlySet<SectionId> = new Set<SectionId>(['business', 'social', 'products', 'gallery', 'design']);

export const sectionLabel = (id: SectionId): string => Sections.find((section) => section.id === id)?.label ?? id;

/** Which section shows a document field (the first segment of an error path like `websiteLinks.0.url`). */
const FIELD_SECTIONS: Readonly<Record<string, SectionId>> = {
  title: 'contact',
  profileBio: 'contact',
  tel: 'contact',
  profileImage: 'contact',
  profileImageWidth: 'contact',
  profileImageHeight: 'contact',
  businessName: 'business',
  businessLogo: 'business',
  businessLogoWidth: 'business',
  websiteLinks: 'business',
  videoLink: 'business',
  socialLinks: 'social',
  products: 'products',
  gallery: 'gallery',
  profileBackground: 'design',
  opacityValue: 'design',
  profileBackgroundColor: 'design',
  mainFontColor: 'design',
  profileBioFont: 'design',
  profileBioBackground: 'design',
  buttonBackgroundColor: 'design',
  buttonFontColor: 'design',
  buttonBorderColor: 'design',
  buttonBorderWidth: 'design',
  dropdownFormsBackground: 'design',
  sendBtnBackgroundColor: 'design',
  sendBtnFontColor: 'design',
};

export function sectionOfField(path: string): SectionId {
  return FIELD_SECTIONS[path.split('.')[0] ?? ''] ?? DEFAULT_SECTION;
}

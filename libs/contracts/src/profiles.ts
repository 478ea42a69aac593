import { z } from 'zod';

export const Memberships = ['DigiShare', 'DigiSilver', 'DigiGold', 'DigiPlatinum'] as const;
export const MembershipSchema = z.enum(Memberships);
export type Membership = z.infer<typeof MembershipSchema>;

/**
 * A new profile's content and design, as the product has always started them (spec section 3, with the
 * defaults decisions.md settles: image height 180, background #eeeeee, border width 4).
 */
export const ProfileDefaults = {
  title: '',
  profileBio: '',
  profileImage: '',
  profileImageWidth: 50,
  profileImageHeight: 180,
  profileBackground: '',
  videoLink: '',
  businessName: '',
  businessLogo: '',
  businessLogoWidth: 50,
  tel: '',
  websiteLinks: [] as Array<{ buttonName: string; url: string }>,
  socialLinks: [] as Array<{ platform: string; url: string }>,
  gallery: [] as Array<{ imageUrl: string }>,
  products: [] as Array<{ name: string; link: string; imageUrl: string }>,
  profileBackgroundColor: '#eeeeee',
  opacityValue: 0.5,
  mainFontColor: '#000000',
  profileBioFont: '#ffffff',
  profileBioBackground: '#484747',
  buttonBackgroundColor: '#670404',
  buttonFontColor: '#ffffff',
  buttonBorderColor: '#000000',
  buttonBorderWidth: 4,
  dropdownFormsBackground: '#484747',
  sendBtnBackgroundColor: '#ffffff',
  sendBtnFontColor: '#000000',
};
export type ProfileDocument = typeof ProfileDefaults;

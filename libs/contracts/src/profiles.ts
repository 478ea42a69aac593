import { z } from 'zod';
import { emailAddress, idempotencyKey, optionalPhone, personName } from './fields.js';
import { pageOf } from './paging.js';

export const Memberships = ['DigiShare', 'DigiSilver', 'DigiGold', 'DigiPlatinum'] as const;
export const MembershipSchema = z.enum(Memberships);
export type Membership = z.infer<typeof MembershipSchema>;

export const UpgradeMessages = {
  socialLinks: 'Upgrade to DigiSilver to unlock Social Media Links!',
  leadForm: 'Upgrade to DigiGold to unlock the lead form!',
  gallery: 'Upgrade to DigiGold to unlock the gallery!',
  video: 'Upgrade to DigiGold to unlock video!',
  products: 'Upgrade to DigiGold to unlock products!',
} as const;

export const SocialPlatforms = [
  'facebook',
  'instagram',
  'linkedin',
  'youtube',
  'whatsapp',
  'twitter',
  'tiktok',
  'snapchat',
  'pinterest',
  'reddit',
  'telegram',
  'discord',
  'weChat',
  'signal',
  'gitHub',
  'dribbble',
  'behance',
  'medium',
  'spotify',
  'appleMusic',
  'soundCloud',
  'twitch',
  'kick',
] as const;
export const SocialPlatformSchema = z.enum(SocialPlatforms, { error: 'Please pick a platform from the list.' });
export type SocialPlatform = z.infer<typeof SocialPlatformSchema>;

/** Only http(s) links: never javascript:, data: or anything else a browser would run. */
export const webUrl = z
  .string({ error: 'Please enter a link.' })
  .trim()
  .min(1, 'Please enter a link.')
  .max(2000, 'That link is too long.')
  .refine((value) => {
    try {
      const url = new URL(value);
      return (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname.includes('.');
    } catch {
      return false;
    }
  }, 'Please enter a full web address starting with https://');

const optionalUrl = z.union([z.literal(''), webUrl]);
const colour = z.string().regex(/^#[0-9a-fA-F]{6}$/, 'Please pick a colour like #670404.');
/** Images we stored ourselves (uploads), or nothing. */
export const mediaUrl = z.union([
  z.literal(''),
  z.string().regex(/^\/media\/[A-Za-z0-9_-]{10,64}\.(webp|png|jpeg)$/, 'Please upload the image again.'),
]);

const stepped = (min: number, max: number, step: number, label: string) =>
  z
    .number({ error: `${label} must be a number.` })
    .min(min, `${label} must be between ${min} and ${max}.`)
    .max(max, `${label} must be between ${min} and ${max}.`)
    .refine((v) => Math.abs(Math.round((v - min) / step) * step + min - v) < 1e-9, `${label} moves in steps of ${step}.`);

/** The editable profile (spec section 3), with every slider's range and step (section 9). */
export const ProfileDocumentSchema = z
  .object({
    title: z.string().trim().max(120),
    profileBio: z.string().trim().max(2000),
    tel: optionalPhone,
    profileImage: mediaUrl,
    profileImageWidth: stepped(0, 100, 5, 'Profile image width'),
    profileImageHeight: stepped(0, 400, 10, 'Profile image height'),
    profileBackground: mediaUrl,
    opacityValue: stepped(0, 1, 0.1, 'Cover opacity'),
    videoLink: optionalUrl,
    businessName: z.string().trim().max(120),
    businessLogo: mediaUrl,
    businessLogoWidth: stepped(0, 100, 10, 'Logo width'),
    websiteLinks: z.array(z.object({ buttonName: z.string().trim().max(40), url: webUrl })).max(10, 'At most 10 website buttons.'),
    socialLinks: z.array(z.object({ platform: SocialPlatformSchema, url: webUrl })).max(23),
    gallery: z.array(z.object({ imageUrl: mediaUrl })).max(12, 'At most 12 gallery images.'),
    products: z
      .array(z.object({ name: z.string().trim().min(1, 'Please name the product.').max(80), link: optionalUrl, imageUrl: mediaUrl }))
      .max(20, 'At most 20 products.'),
    profileBackgroundColor: colour,
    mainFontColor: colour,
    profileBioFont: colour,
    profileBioBackground: colour,
    buttonBackgroundColor: colour,
    buttonFontColor: colour,
    buttonBorderColor: colour,
    buttonBorderWidth: stepped(0, 10, 1, 'Button border width'),
    dropdownFormsBackground: colour,
    sendBtnBackgroundColor: colour,
    sendBtnFontColor: colour,
  })
  .meta({ id: 'ProfileDocument' });
export type ProfileDocument = z.infer<typeof ProfileDocumentSchema>;

/**
 * A new profile's content and design, as the product has always started them (spec section 3, with the
 * defaults decisions.md settles: image height 180, background #eeeeee, border width 4).
 */
export const ProfileDefaults: ProfileDocument = {
  title: '',
  profileBio: '',
  tel: '',
  profileImage: '',
  profileImageWidth: 50,
  profileImageHeight: 180,
  profileBackground: '',
  opacityValue: 0.5,
  videoLink: '',
  businessName: '',
  businessLogo: '',
  businessLogoWidth: 50,
  websiteLinks: [],
  socialLinks: [],
  gallery: [],
  products: [],
  profileBackgroundColor: '#eeeeee',
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

/** The owner's view in the dashboard. */
export const OwnProfileSchema = z
  .object({
    username: z.string(),
    firstName: z.string(),
    lastName: z.string(),
    email: z.string(),
    membership: MembershipSchema,
    isVerified: z.boolean(),
    isPublic: z.boolean(),
    /** A partner (set by staff) switches tiers freely; everyone else pays DigiSilver and DigiGold at PayFast. */
    isPartner: z.boolean().optional(),
    document: ProfileDocumentSchema,
    updatedAt: z.iso.datetime(),
    /**
     * A team rep's profile: the business fields come from the leader (shown in `document`, locked in the editor, and
     * ignored when the rep saves). Absent for everyone else.
     */
    managedBy: z.object({ accountId: z.uuid(), username: z.string(), businessName: z.string(), fields: z.array(z.string()) }).optional(),
  })
  .meta({ id: 'OwnProfile' });
export type OwnProfile = z.infer<typeof OwnProfileSchema>;

export const SaveProfileSchema = z.object({ document: ProfileDocumentSchema }).meta({ id: 'SaveProfile' });
export type SaveProfile = z.infer<typeof SaveProfileSchema>;

export const ProfileSettingsSchema = z.object({ isPublic: z.boolean(), membership: MembershipSchema }).meta({ id: 'ProfileSettings' });
export type ProfileSettings = z.infer<typeof ProfileSettingsSchema>;

/** What a visitor's page shows: content the owner's tier does not include is left out here, on the server. */
export const PublicProfileSchema = z
  .object({
    username: z.string(),
    firstName: z.string(),
    lastName: z.string(),
    email: z.string(),
    membership: MembershipSchema,
    document: ProfileDocumentSchema,
    features: z.object({
      socialLinks: z.boolean(),
      leadForm: z.boolean(),
      gallery: z.boolean(),
      video: z.boolean(),
      products: z.boolean(),
      /** DigiSilver: Share on WhatsApp, Share by email, the share sheet. */
      shareContact: z.boolean().default(false),
    }),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: 'PublicProfile' });
export type PublicProfile = z.infer<typeof PublicProfileSchema>;

export const ViewSources = ['link', 'qr', 'nfc'] as const;
export const ViewSourceSchema = z.enum(ViewSources);
export type ViewSource = z.infer<typeof ViewSourceSchema>;

/**
 * A stored lead, declared once: what a visitor wrote (the submission's fields, below), its id and its time. The owner's
 * list (LeadSchema), the CRM webhook's body, the lead email's job and profiles' `profiles.lead.captured` event derive
 * from it (`.omit`/`.extend`). Read back as stored: no rule of the form rewrites it on the way out (a message keeps its
 * line breaks in the CSV).
 */
export const LeadKinds = ['lead', 'exchange', 'own-profile'] as const;
export const LeadFieldsSchema = z.object({
  id: z.uuid(),
  kind: z.enum(LeadKinds),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  phone: z.string(),
  message: z.string(),
  createdAt: z.iso.datetime(),
});

/**
 * The three forms a visitor can send from a profile (spec section 7), one shape with a kind: the stored lead's own
 * fields (`.pick`), each with the form's rule (`.extend`), and what only the submission carries.
 */
export const LeadSubmissionSchema = LeadFieldsSchema.pick({
  kind: true,
  firstName: true,
  lastName: true,
  email: true,
  phone: true,
  message: true,
})
  .extend({
    firstName: personName,
    lastName: z.string().trim().max(120).default(''),
    email: emailAddress,
    phone: optionalPhone.default(''),
    message: z.string().trim().max(2000, 'Please keep the message under 2000 characters.').default(''),
    consent: z.literal(true, { error: 'Please agree that the owner may contact you.' }),
    /** Exchange Contact: the visitor asks for a copy of the owner's contact card (vCard) by email. */
    sendCard: z.boolean().default(false),
    /** Honeypot: a field people never see. Anything in it marks a robot. */
    website: z.string().max(200).default(''),
    idempotencyKey,
  })
  .meta({ id: 'LeadSubmission' });
export type LeadSubmission = z.infer<typeof LeadSubmissionSchema>;

export const LeadSchema = LeadFieldsSchema.extend({
  /** In a team leader's team leads: the rep whose page it came from. */
  rep: z.string().optional(),
}).meta({ id: 'Lead' });
export type Lead = z.infer<typeof LeadSchema>;
/** What a visitor is told when a profile cannot take more leads today (its daily cap, LEADS_PER_PROFILE_DAY). */
export const LeadMessages = {
  profileFullToday: 'This profile has received as many messages as it can take today. Please try again tomorrow.',
} as const;

/** A page of leads, newest first. */
export const LeadListSchema = pageOf('leads', LeadSchema).meta({ id: 'LeadList' });
export type LeadList = z.infer<typeof LeadListSchema>;

/** The consent the lead forms show, as the lead keeps it (what was shown, and when it was given). */
export const leadConsentText = (ownerName: string): string => `I agree that ${ownerName} may contact me about this.`;

/** The spec's thank-you texts for the three forms (section 8), typos mended. */
export const LeadThanks = {
  lead: 'Thank you! I will get in touch with you soon.',
  exchange: 'Thank you! I will get in touch with you soon.',
  'own-profile': 'Thank you! Please check your email and follow the easy steps.',
} as const;

export const ImagePurposes = ['profileImage', 'profileBackground', 'businessLogo', 'gallery', 'product'] as const;
export const ImagePurposeSchema = z.enum(ImagePurposes);
export type ImagePurpose = z.infer<typeof ImagePurposeSchema>;

/** The old product's limit, kept: 2*1024*1023 bytes. */
export const MAX_IMAGE_BYTES = 2 * 1024 * 1023;

export const ImageMessages = {
  tooLarge: 'Image is too large! Please upload an image smaller than 2MB.',
  notAnImage: 'Image upload failed. Please try again.',
  tooManyPixels: 'Image is too large! Please upload an image of at most 25 megapixels (e.g. 6000 × 4000).',
} as const;

export const StoredImageSchema = z.object({ url: mediaUrl.refine((v) => v !== '') }).meta({ id: 'StoredImage' });
export type StoredImage = z.infer<typeof StoredImageSchema>;

export const LeadAcceptedSchema = z.object({ message: z.string() }).meta({ id: 'LeadAccepted' });

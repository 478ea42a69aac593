/**
 * The content of the /tedx_george promo page: a one-day TEDx conference in George, Western Cape. Edit the texts
 * and links here; the page (`src/pages/tedx-george-page.tsx`) only lays them out. The community chat's invite link
 * is the deployment's (the gateway's `TEDX_GEORGE_COMMUNITY_URL`, in the site configuration), not written here.
 */
export type PromoSocialPlatform = 'facebook' | 'instagram' | 'linkedin' | 'x';

export interface PromoSocialLink {
  readonly platform: PromoSocialPlatform;
  readonly url: string;
}

export interface PromoImage {
  /** A file under `public/`, e.g. `/images/promo/stage.svg`. */
  readonly src: string;
  readonly alt: string;
  readonly width: number;
  readonly height: number;
}

export interface PromoEvent {
  readonly title: string;
  /** Shown as it is, e.g. "One day, Saturday 7 June". */
  readonly dateText: string;
  readonly city: string;
  readonly intro: readonly string[];
  readonly websiteUrl: string;
  readonly aboutUrl: string;
  readonly partnersUrl: string;
  readonly socialLinks: readonly [PromoSocialLink, PromoSocialLink, PromoSocialLink, PromoSocialLink];
  readonly images: readonly [PromoImage, PromoImage, PromoImage];
}

export const TEDX_GEORGE: PromoEvent = {
  title: 'TEDxGeorge',
  // The organisers publish the date on their website; set it here once it is announced.
  dateText: 'A one-day event. The date is announced on the TEDxGeorge website.',
  city: 'George, Western Cape',
  intro: [
    'TEDxGeorge brings TED’s spirit of “ideas worth spreading” to the Garden Route: one day of short, powerful talks by local thinkers, makers and entrepreneurs, with performances and time to meet the people around you.',
    'TEDx events are independently organised under a free licence from TED. This one is run by people from George for the whole community.',
    'Meeting people is half the day. Bring your digital business card, and share your details with a tap or a scan instead of a slip of paper.',
  ],
  websiteUrl: 'https://www.tedxgeorge.com',
  aboutUrl: 'https://www.tedxgeorge.com/about',
  partnersUrl: 'https://www.tedxgeorge.com/partners',
  socialLinks: [
    { platform: 'facebook', url: 'https://www.facebook.com/tedxgeorge' },
    { platform: 'instagram', url: 'https://www.instagram.com/tedxgeorge' },
    { platform: 'linkedin', url: 'https://www.linkedin.com/tedxgeorge' },
    { platform: 'x', url: 'https://www.x.com/tedxgeorge' },
  ],
  images: [
    { src: '/images/promo/stage.svg', alt: 'A speaker on a stage below the red TEDx letters', width: 800, height: 500 },
    { src: '/images/promo/audience.svg', alt: 'An audience in rows of seats, facing the stage', width: 800, height: 500 },
    { src: '/images/promo/george-mountains.svg', alt: 'The Outeniqua mountains above the town of George', width: 800, height: 500 },
  ],
};

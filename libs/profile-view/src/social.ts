import { SocialPlatforms, type SocialPlatform } from '@digicard/contracts';

export interface SocialBadge {
  /** The link's accessible name, e.g. "Facebook". */
  label: string;
  /** The one or two characters shown in the round badge (hidden from screen readers). */
  badge: string;
  /** The badge's background, the platform's brand colour. */
  colour: string;
}

/** A text badge per allowed platform (no icon font, no images: nothing to download). */
export const SocialBadges: Record<SocialPlatform, SocialBadge> = {
  facebook: { label: 'Facebook', badge: 'f', colour: '#1464d2' },
  instagram: { label: 'Instagram', badge: 'IG', colour: '#c13584' },
  linkedin: { label: 'LinkedIn', badge: 'in', colour: '#0a66c2' },
  youtube: { label: 'YouTube', badge: 'YT', colour: '#cc0000' },
  whatsapp: { label: 'WhatsApp', badge: 'WA', colour: '#075e54' },
  twitter: { label: 'X (Twitter)', badge: 'X', colour: '#000000' },
  tiktok: { label: 'TikTok', badge: 'TT', colour: '#111111' },
  snapchat: { label: 'Snapchat', badge: 'SN', colour: '#fffc00' },
  pinterest: { label: 'Pinterest', badge: 'P', colour: '#bd081c' },
  reddit: { label: 'Reddit', badge: 'R', colour: '#ff4500' },
  telegram: { label: 'Telegram', badge: 'TG', colour: '#1c7fb0' },
  discord: { label: 'Discord', badge: 'DC', colour: '#4f5bd5' },
  weChat: { label: 'WeChat', badge: 'WC', colour: '#07853f' },
  signal: { label: 'Signal', badge: 'SG', colour: '#2c6bed' },
  gitHub: { label: 'GitHub', badge: 'GH', colour: '#181717' },
  dribbble: { label: 'Dribbble', badge: 'Dr', colour: '#c32361' },
  behance: { label: 'Behance', badge: 'Bē', colour: '#1769ff' },
  medium: { label: 'Medium', badge: 'M', colour: '#000000' },
  spotify: { label: 'Spotify', badge: 'Sp', colour: '#1db954' },
  appleMusic: { label: 'Apple Music', badge: 'AM', colour: '#d60017' },
  soundCloud: { label: 'SoundCloud', badge: 'SC', colour: '#ff5500' },
  twitch: { label: 'Twitch', badge: 'Tw', colour: '#7b3fe4' },
  kick: { label: 'Kick', badge: 'K', colour: '#53fc18' },
};

const known = new Set<string>(SocialPlatforms);

/** True for the platforms the product knows (spec section 3); links to any other are not shown. */
export const isSocialPlatform = (value: unknown): value is SocialPlatform => typeof value === 'string' && known.has(value);

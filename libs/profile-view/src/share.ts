/** Where a share leads: the profile's address tagged with its source, so analytics can tell the shares apart. */
export interface ShareLinks {
  /** WhatsApp click-to-chat with the message prefilled (`?src=wa`). */
  whatsapp: string;
  /** A new email with subject and body prefilled (`?src=email`). */
  email: string;
  /** For the browser's share sheet (`?src=link`: the app it goes to is not known). */
  url: string;
  title: string;
}

const tagged = (profileUrl: string, src: string): string => `${profileUrl}${profileUrl.includes('?') ? '&' : '?'}src=${src}`;

/** The share links of a profile whose owner is `name` at `profileUrl` (absolute, without a query). */
export function shareLinks(name: string, profileUrl: string): ShareLinks {
  const title = `${name}'s digital business card`;
  return {
    whatsapp: `https://wa.me/?text=${encodeURIComponent(`${title}: ${tagged(profileUrl, 'wa')}`)}`,
    email: `mailto:?subject=${encodeURIComponent(title)}&body=${encodeURIComponent(`Here are ${name}'s contact details: ${tagged(profileUrl, 'email')}`)}`,
    url: tagged(profileUrl, 'link'),
    title,
  };
}

export const ShareTexts = { whatsapp: 'Share on WhatsApp', email: 'Share by email', native: 'Share…' } as const;

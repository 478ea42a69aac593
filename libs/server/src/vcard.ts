import { toE164, type PublicProfile } from '@digicard/contracts';

/**
 * The contact card of a profile (vCard 3.0), one builder for Save to Contact (the gateway's download) and Exchange
 * Contact (the copy notifications emails to a visitor), so both carry the same card.
 */

/** vCard 3.0 text values escape backslash, comma, semicolon and line breaks (RFC 2426 section 4). */
export const escapeVcard = (value: string): string =>
  value
    .replace(/\\/g, '\\\\')
    .replace(/\r\n|\r|\n/g, '\\n')
    .replace(/,/g, '\\,')
    .replace(/;/g, '\\;');

/** Lines are folded at 75 octets with CRLF and a space, never inside a UTF-8 character. */
export function foldLine(line: string): string {
  const parts: string[] = [];
  let current = '';
  let bytes = 0;
  for (const ch of line) {
    const size = Buffer.byteLength(ch);
    if (bytes + size > (parts.length === 0 ? 75 : 74)) {
      parts.push(current);
      current = '';
      bytes = 0;
    }
    current += ch;
    bytes += size;
  }
  parts.push(current);
  return parts.join('\r\n ');
}

export interface VcardOptions {
  profile: PublicProfile;
  profileUrl: string;
  /** The profile photo as JPEG, embedded so phones show it without fetching anything. */
  photoJpeg?: Buffer | null;
}

export function buildVcard({ profile, profileUrl, photoJpeg }: VcardOptions): string {
  const doc = profile.document;
  const lines = [
    'BEGIN:VCARD',
    'VERSION:3.0',
    `N:${escapeVcard(profile.lastName)};${escapeVcard(profile.firstName)};;;`,
    `FN:${escapeVcard(`${profile.firstName} ${profile.lastName}`.trim())}`,
    ...(doc.businessName ? [`ORG:${escapeVcard(doc.businessName)}`] : []),
    ...(doc.title ? [`TITLE:${escapeVcard(doc.title)}`] : []),
    ...(doc.tel ? [`TEL;TYPE=WORK,VOICE:${escapeVcard(toE164(doc.tel) ?? doc.tel)}`] : []),
    `EMAIL;TYPE=INTERNET,WORK:${escapeVcard(profile.email)}`,
    `URL:${escapeVcard(profileUrl)}`,
    ...(photoJpeg ? [`PHOTO;ENCODING=b;TYPE=JPEG:${photoJpeg.toString('base64')}`] : []),
    `REV:${new Date(profile.updatedAt).toISOString().replace(/\.\d{3}Z$/, 'Z')}`,
    'END:VCARD',
  ];
  return `${lines.map(foldLine).join('\r\n')}\r\n`;
}

/** A download name people recognise, safe in a header: "{name}.vcf". */
export function vcardFileName(profile: PublicProfile): string {
  const name =
    `${profile.firstName} ${profile.lastName}`
      .trim()
      .replace(/[^\p{L}\p{N} .-]/gu, '')
      .trim() || profile.username;
  return `${name}.vcf`;
}

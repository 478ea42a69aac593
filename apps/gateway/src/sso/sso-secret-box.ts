import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const VERSION = 'v1.';
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** Binds a ciphertext to its use: a ciphertext of another purpose under the same key does not decrypt here. */
const AAD = Buffer.from('digicard:sso-client-secret:v1');

/**
 * Teams' company sign-in client secrets, encrypted with AES-256-GCM under `SSO_SECRET_KEY` (only the gateway holds
 * it): `v1.<base64url of a random 96-bit IV, the 128-bit tag, the ciphertext>`. The teams service stores the text
 * and cannot read it; a changed byte, or another key, fails the tag check.
 */
export class SsoSecretBox {
  private constructor(private readonly key: Buffer) {}

  /** The box of a configured key (base64 of 32 bytes), or null when company sign-in is off (no key). */
  static fromConfig(keyBase64: string | undefined): SsoSecretBox | null {
    if (!keyBase64) return null;
    const key = Buffer.from(keyBase64, 'base64');
    if (key.length !== 32) throw new Error('SSO_SECRET_KEY must be 32 bytes in base64');
    return new SsoSecretBox(key);
  }

  seal(secret: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(AAD);
    const ciphertext = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
    return VERSION + Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString('base64url');
  }

  /** The secret; throws when the text is not a ciphertext of this key (tampered, or sealed under another key). */
  open(sealed: string): string {
    if (!sealed.startsWith(VERSION)) throw new Error('not a sealed SSO client secret');
    const raw = Buffer.from(sealed.slice(VERSION.length), 'base64url');
    if (raw.length < IV_BYTES + TAG_BYTES) throw new Error('not a sealed SSO client secret');
    const decipher = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, IV_BYTES), { authTagLength: TAG_BYTES });
    decipher.setAAD(AAD);
    decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
  }
}

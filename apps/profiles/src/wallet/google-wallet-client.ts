import type { GoogleWallet } from './google-config.js';
import { GOOGLE_WALLET_SCOPE, signJwt } from './google-wallet-object.js';

/** What a write of an object came to: written, or not at Google (its owner never saved it; the save link carries it). */
export type GoogleWriteOutcome = { status: 'written' } | { status: 'not-saved' };

/** A write Google refused for good (400/403 and the like): retrying it would not help. */
export class GoogleWalletRefusal extends Error {}

const TIMEOUT_MS = 10_000;

/**
 * The Google Wallet REST API, as the service account: an access token from Google's OAuth 2.0 token endpoint (the
 * JWT-bearer grant: an assertion signed RS256 with the service account's key, scope `wallet_object.issuer`), kept
 * until a minute before it expires, then `PUT walletobjects/v1/genericObject/{id}` with the object as it is now.
 */
export class GoogleWalletClient {
  private token: { value: string; until: number } | null = null;

  constructor(
    private readonly wallet: GoogleWallet,
    private readonly fetchImpl: typeof fetch = fetch,
  ) {}

  async putObject(object: Record<string, unknown> & { id: string }): Promise<GoogleWriteOutcome> {
    const url = `${this.wallet.apiUrl}/walletobjects/v1/genericObject/${encodeURIComponent(object.id)}`;
    let response = await this.put(url, object, await this.accessToken());
    if (response.status === 401) {
      // The token was revoked or expired early: one more try with a new one.
      this.token = null;
      response = await this.put(url, object, await this.accessToken());
    }
    if (response.ok) return { status: 'written' };
    if (response.status === 404) return { status: 'not-saved' };
    const detail = (await response.text().catch(() => '')).slice(0, 300);
    if (response.status === 429 || response.status >= 500) throw new Error(`Google Wallet API: ${response.status} ${detail}`);
    throw new GoogleWalletRefusal(`Google Wallet API refused the object: ${response.status} ${detail}`);
  }

  private put(url: string, body: unknown, token: string): Promise<Response> {
    return this.fetchImpl(url, {
      method: 'PUT',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
      redirect: 'error',
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  }

  async accessToken(now = Date.now()): Promise<string> {
    if (this.token && this.token.until > now) return this.token.value;
    const iat = Math.floor(now / 1000);
    const assertion = signJwt(
      { iss: this.wallet.serviceAccountEmail, scope: GOOGLE_WALLET_SCOPE, aud: this.wallet.tokenUrl, iat, exp: iat + 3600 },
      this.wallet.key,
    );
    const response = await this.fetchImpl(this.wallet.tokenUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion }).toString(),
      redirect: 'error',
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    if (!response.ok)
      throw new Error(`Google OAuth token endpoint: ${response.status} ${(await response.text().catch(() => '')).slice(0, 300)}`);
    const body = (await response.json()) as { access_token?: unknown; expires_in?: unknown };
    if (typeof body.access_token !== 'string' || body.access_token === '') throw new Error('Google OAuth token endpoint: no access_token');
    const lifetime = typeof body.expires_in === 'number' ? body.expires_in : 3600;
    this.token = { value: body.access_token, until: now + Math.max(0, lifetime - 60) * 1000 };
    return this.token.value;
  }
}

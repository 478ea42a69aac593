import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SignJWT, decodeJwt, decodeProtectedHeader, exportJWK, generateKeyPair, type CryptoKey, type JWK } from 'jose';
import Provider from 'oidc-provider';
import { freePort } from './infra.js';

/** How the token endpoint's ID token is changed on the wire (the provider itself always issues a good one). */
export type IdTokenTampering = 'none' | 'forged' | 'expired' | 'audience';

/**
 * A real OpenID Connect provider (`oidc-provider`) on a free local port, for the company sign-in tests: discovery,
 * its keys, authorization with PKCE, the token endpoint, signed ID tokens. The person who signs in at it is whoever
 * the test names (`signInAs`): its interaction pages log them in and consent at once, as a provider's login page
 * would once the person typed their password. `tamper` makes the token endpoint's answer carry a bad ID token (what a
 * forger or a broken provider would send): signed with another key, expired, or for another audience, the last two
 * signed with the provider's own key, so only that one check can fail.
 */
export class OidcTestProvider {
  tamper: IdTokenTampering = 'none';
  /** The next person cancels at the provider's page (the provider answers `error=access_denied`). */
  cancelNext = false;
  private person: { sub: string; email: string; emailVerified: boolean } | null = null;

  private constructor(
    readonly issuer: string,
    readonly clientId: string,
    readonly clientSecret: string,
    private readonly server: Server,
    private readonly signingKey: CryptoKey,
    private readonly kid: string,
  ) {}

  static async start(redirectUri: string): Promise<OidcTestProvider> {
    const port = await freePort();
    const issuer = `http://127.0.0.1:${port}`;
    const clientId = 'digicard-test-client';
    const clientSecret = 'a client secret only the provider and the gateway know';
    const { privateKey } = await generateKeyPair('RS256', { extractable: true });
    const kid = 'provider-key-1';
    const jwk: JWK = { ...(await exportJWK(privateKey)), kid, alg: 'RS256', use: 'sig' };
    let holder: OidcTestProvider | null = null;
    const provider = new Provider(issuer, {
      clients: [
        {
          client_id: clientId,
          client_secret: clientSecret,
          redirect_uris: [redirectUri],
          grant_types: ['authorization_code'],
          response_types: ['code'],
        },
      ],
      jwks: { keys: [jwk] },
      cookies: { keys: ['oidc-test-provider-cookie-key'] },
      claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
      // Google and Entra ID put the email in the ID token; so does this provider.
      conformIdTokenClaims: false,
      features: { devInteractions: { enabled: false } },
      interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
      pkce: { required: () => true },
      findAccount: (_ctx, sub) => {
        const person = holder?.person;
        if (!person || person.sub !== sub) return undefined;
        return { accountId: sub, claims: () => ({ sub, email: person.email, email_verified: person.emailVerified, name: 'Test Person' }) };
      },
    });
    const callback = provider.callback();
    const server = createServer((req, res) => {
      const path = (req.url ?? '/').split('?')[0] ?? '/';
      if (path.startsWith('/interaction/')) {
        void holder!.interaction(provider, req, res).catch((error: unknown) => {
          res.statusCode = 500;
          res.end(String(error));
        });
        return;
      }
      if (path === '/token' && holder!.tamper !== 'none') holder!.tamperWith(res);
      void callback(req, res);
    });
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    holder = new OidcTestProvider(issuer, clientId, clientSecret, server, privateKey, kid);
    return holder;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  /** Who signs in at the provider from now on (the provider's own account id, and the email it vouches for). */
  signInAs(sub: string, email: string, options: { emailVerified?: boolean } = {}): void {
    this.person = { sub, email, emailVerified: options.emailVerified ?? true };
  }

  private async interaction(provider: Provider, req: IncomingMessage, res: ServerResponse): Promise<void> {
    const details = await provider.interactionDetails(req, res);
    if (this.cancelNext) {
      this.cancelNext = false;
      await provider.interactionFinished(req, res, { error: 'access_denied', error_description: 'End-User aborted interaction' });
      return;
    }
    if (!this.person) throw new Error('nobody to sign in: call signInAs first');
    const grant = new provider.Grant({ accountId: this.person.sub, clientId: String(details.params['client_id']) });
    grant.addOIDCScope(String(details.params['scope']));
    const grantId = await grant.save();
    await provider.interactionFinished(
      req,
      res,
      { login: { accountId: this.person.sub }, consent: { grantId } },
      { mergeWithLastSubmission: false },
    );
  }

  /** Rewrites the ID token in the token endpoint's JSON answer, as the current tampering says. */
  private tamperWith(res: ServerResponse): void {
    const end = res.end.bind(res) as (chunk?: unknown) => ServerResponse;
    const mode = this.tamper;
    res.end = ((chunk?: unknown) => {
      void (async () => {
        const text = Buffer.isBuffer(chunk) ? chunk.toString('utf8') : typeof chunk === 'string' ? chunk : '';
        let body: Record<string, unknown>;
        try {
          body = JSON.parse(text) as Record<string, unknown>;
        } catch {
          return end(chunk);
        }
        if (typeof body['id_token'] === 'string') body['id_token'] = await this.reissue(body['id_token'], mode);
        const out = JSON.stringify(body);
        if (!res.headersSent) res.setHeader('content-length', Buffer.byteLength(out));
        return end(out);
      })();
      return res;
    }) as typeof res.end;
  }

  private async reissue(idToken: string, mode: IdTokenTampering): Promise<string> {
    const payload = decodeJwt(idToken);
    const header = decodeProtectedHeader(idToken);
    const now = Math.floor(Date.now() / 1000);
    let key = this.signingKey;
    if (mode === 'forged') key = (await generateKeyPair('RS256')).privateKey;
    if (mode === 'expired') Object.assign(payload, { iat: now - 7200, exp: now - 3600 });
    if (mode === 'audience') payload.aud = 'another-client-of-this-provider';
    return new SignJWT(payload).setProtectedHeader({ alg: header.alg ?? 'RS256', kid: this.kid, typ: header.typ }).sign(key);
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

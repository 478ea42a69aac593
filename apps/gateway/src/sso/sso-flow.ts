import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { Redis } from 'ioredis';
import * as oidc from 'openid-client';
import type { z } from 'zod';
import {
  ErrorCode,
  Rpc,
  SsoMessages,
  type RequestMeta,
  type SaveSsoSettings,
  type SsoCallbackQuerySchema,
  type SsoErrorCode,
  type SsoProviderSchema,
  type SsoSettings,
  type SsoStart,
  type StoredSsoSettingsSchema,
} from '@digicard/contracts';
import type { Logger } from '@digicard/config';
import { ApiHttpException, CONFIG, LOGGER } from '@digicard/server';
import { SessionSignIn } from '../auth/session-sign-in.js';
import type { Config } from '../config.js';
import { redisCall } from '../redis/redis-call.js';
import { GatewayRpc } from '../rpc/rpc.client.js';
import type { Session } from '../session/session.store.js';
import { REDIS } from '../tokens.js';
import { providerFetch, refusedPrivateAddress } from './provider-fetch.js';
import { SsoSecretBox } from './sso-secret-box.js';

/** The cookie binding a started sign-in to the browser that started it (login CSRF: a stranger's callback URL fails). */
export const SSO_COOKIE = '__Host-digicard_sso';
/** How long a started sign-in waits for the provider's answer. */
const PENDING_MS = 10 * 60_000;
/** How long the gateway waits for the provider (discovery, keys, the token endpoint), in seconds. */
const PROVIDER_TIMEOUT_SECONDS = 10;
const CALLBACK_PATH = '/api/sso/callback';

type Provider = z.infer<typeof SsoProviderSchema>;
type CallbackQuery = z.infer<typeof SsoCallbackQuerySchema>;

/** What the gateway keeps in Redis between the start and the callback, under the state's SHA-256. */
interface PendingSignIn {
  teamId: string;
  codeVerifier: string;
  nonce: string;
  /** SHA-256 of the browser's SSO cookie. */
  binding: string;
}

class SsoRefusal extends Error {
  constructor(
    readonly code: SsoErrorCode,
    reason: string,
  ) {
    super(reason);
  }
}

const sha256 = (value: string): string => createHash('sha256').update(value).digest('hex');

function cookieValue(req: Request, name: string): string | null {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return value.join('=').trim();
  }
  return null;
}

/**
 * Sign-in with a company account (OpenID Connect, authorization code flow with PKCE, state and nonce), and the
 * leader's settings for it. The gateway runs the flow because it holds the sessions and is the only part the
 * browser and the provider talk to; the teams service keeps the settings (the client secret only as this gateway's
 * ciphertext), identity the accounts (docs/decisions/0012-single-sign-on-in-the-gateway.md).
 *
 * The ID token is checked by openid-client: its signature against the provider's published keys
 * (`enableNonRepudiationChecks`: not left to TLS alone), issuer, audience, expiry and nonce; the state is single use
 * (taken from Redis with GETDEL) and bound to the browser by a cookie. Then the email must be one of the team's
 * domains, an account identity knows, and a current rep of that team or its leader (teams says): the gateway's
 * ordinary session follows, as for a password. No secret, code or token is ever logged.
 */
@Injectable()
export class SsoFlow {
  private readonly box: SsoSecretBox | null;
  /** Every call to a provider (discovery, its keys, its token endpoint) goes to public addresses only, unless allowed. */
  private readonly providerFetch: oidc.CustomFetch;

  constructor(
    @Inject(GatewayRpc) private readonly rpc: GatewayRpc,
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(CONFIG) private readonly config: Config,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(SessionSignIn) private readonly signIn: SessionSignIn,
  ) {
    this.box = SsoSecretBox.fromConfig(config.SSO_SECRET_KEY);
    this.providerFetch = providerFetch(config.SSO_ALLOW_PRIVATE_ISSUERS ?? config.NODE_ENV === 'development');
  }

  private get redirectUri(): string {
    return new URL(CALLBACK_PATH, this.config.PUBLIC_URL).href;
  }

  private requireBox(): SsoSecretBox {
    if (!this.box) throw new ApiHttpException({ statusCode: 503, code: ErrorCode.ServiceUnavailable, message: SsoMessages.unavailable });
    return this.box;
  }

  private view(stored: z.infer<typeof StoredSsoSettingsSchema>): SsoSettings {
    return { ...stored, configured: stored.teamId !== null, redirectUri: this.redirectUri };
  }

  // The leader's settings.

  async settings(meta: RequestMeta): Promise<SsoSettings> {
    return this.view(await this.rpc.call(Rpc.getSsoSettings, {}, meta));
  }

  /** Checks the issuer answers OpenID Connect discovery (400 on the field otherwise), then stores the settings. */
  async save(body: SaveSsoSettings, meta: RequestMeta): Promise<SsoSettings> {
    const box = this.requireBox();
    try {
      await this.discover(body.issuer, body.clientId, undefined);
    } catch (error) {
      this.logger.warn({ requestId: meta.requestId, reason: reasonOf(error) }, 'sso issuer did not answer discovery');
      const privateAddress = refusedPrivateAddress(error);
      throw new ApiHttpException({
        statusCode: 400,
        code: ErrorCode.ValidationFailed,
        message: 'Please correct the highlighted fields.',
        fieldErrors: { issuer: [privateAddress ? SsoMessages.issuerPrivate : SsoMessages.issuerNotFound] },
      });
    }
    const { clientSecret, ...rest } = body;
    const stored = await this.rpc.call(
      Rpc.saveSsoSettings,
      { ...rest, clientSecretCiphertext: clientSecret ? box.seal(clientSecret) : null },
      meta,
    );
    return this.view(stored);
  }

  async remove(meta: RequestMeta): Promise<{ message: string }> {
    await this.rpc.call(Rpc.removeSsoSettings, {}, meta);
    return { message: SsoMessages.removed };
  }

  // The sign-in.

  /** Finds the team's provider and answers the authorization URL; the browser's cookie binds the state to it. */
  async start(body: SsoStart, meta: RequestMeta, res: Response): Promise<{ redirectUrl: string }> {
    const box = this.requireBox();
    const provider = await this.rpc.call(Rpc.findSsoProvider, body.team ? { teamId: body.team } : { email: body.email ?? '' }, meta);
    let config: oidc.Configuration;
    try {
      config = await this.discover(provider.issuer, provider.clientId, box.open(provider.clientSecretCiphertext));
    } catch (error) {
      this.logger.warn({ requestId: meta.requestId, teamId: provider.teamId, reason: reasonOf(error) }, 'sso provider unreachable');
      throw new ApiHttpException({ statusCode: 503, code: ErrorCode.ServiceUnavailable, message: SsoMessages.providerUnreachable });
    }
    const codeVerifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    const binding = randomBytes(32).toString('base64url');
    const pending: PendingSignIn = { teamId: provider.teamId, codeVerifier, nonce, binding: sha256(binding) };
    await redisCall(() => this.redis.set(this.pendingKey(state), JSON.stringify(pending), 'PX', PENDING_MS));
    res.cookie(SSO_COOKIE, binding, { httpOnly: true, secure: true, sameSite: 'lax', path: '/', maxAge: PENDING_MS });
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: this.redirectUri,
      scope: 'openid email profile',
      code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
      state,
      nonce,
      ...(body.email ? { login_hint: body.email } : {}),
    });
    return { redirectUrl: url.href };
  }

  /**
   * The provider's answer: signs in and sends the browser to the dashboard, or to the login page with the reason's
   * code (`/login?sso_error=`). Never a JSON error: a person's browser is on this address.
   */
  async callback(query: CallbackQuery, req: Request, res: Response, previous: Session | null, meta: RequestMeta): Promise<void> {
    res.clearCookie(SSO_COOKIE, { httpOnly: true, secure: true, sameSite: 'lax', path: '/' });
    try {
      const user = await this.finish(query, req, meta);
      await this.signIn.start(res, user, previous);
      res.redirect(303, '/dashboard');
    } catch (error) {
      if (!(error instanceof SsoRefusal)) throw error;
      this.logger.info({ requestId: meta.requestId, code: error.code, reason: error.message }, 'sso sign-in refused');
      res.redirect(303, `/login?sso_error=${error.code}`);
    }
  }

  private async finish(query: CallbackQuery, req: Request, meta: RequestMeta) {
    // Single use: taken and deleted in one step, so a replayed callback finds nothing.
    const raw = await redisCall(() => this.redis.getdel(this.pendingKey(query.state)));
    if (!raw) throw new SsoRefusal('expired', 'unknown, expired or used state');
    const pending = JSON.parse(raw) as PendingSignIn;
    const cookie = cookieValue(req, SSO_COOKIE);
    if (!cookie || !timingSafeEqual(Buffer.from(sha256(cookie)), Buffer.from(pending.binding))) {
      throw new SsoRefusal('expired', 'the state was started by another browser');
    }
    if (query.error) throw new SsoRefusal(query.error === 'access_denied' ? 'cancelled' : 'failed', `provider error ${query.error}`);

    const box = this.requireBox();
    let provider: Provider;
    try {
      provider = await this.rpc.call(Rpc.findSsoProvider, { teamId: pending.teamId }, meta);
    } catch (error) {
      if (error instanceof ApiHttpException && error.body.statusCode === 404)
        throw new SsoRefusal('failed', 'the team removed its provider');
      throw error;
    }
    let config: oidc.Configuration;
    try {
      config = await this.discover(provider.issuer, provider.clientId, box.open(provider.clientSecretCiphertext));
    } catch (error) {
      throw new SsoRefusal('unavailable', `discovery: ${reasonOf(error)}`);
    }
    const currentUrl = new URL(CALLBACK_PATH, this.config.PUBLIC_URL);
    for (const [key, value] of Object.entries(query)) if (typeof value === 'string') currentUrl.searchParams.set(key, value);
    let claims: oidc.IDToken | undefined;
    try {
      const tokens = await oidc.authorizationCodeGrant(
        config,
        currentUrl,
        { pkceCodeVerifier: pending.codeVerifier, expectedState: query.state, expectedNonce: pending.nonce, idTokenExpected: true },
        { redirect_uri: this.redirectUri },
      );
      claims = tokens.claims();
    } catch (error) {
      throw new SsoRefusal('failed', `code exchange or ID token: ${reasonOf(error)}`);
    }
    const email = typeof claims?.['email'] === 'string' ? claims['email'].trim().toLowerCase() : '';
    const domain = email.slice(email.lastIndexOf('@') + 1);
    if (!email.includes('@') || claims?.['email_verified'] === false) throw new SsoRefusal('no-email', 'no verified email claim');
    if (!provider.domains.includes(domain)) throw new SsoRefusal('other-team', 'the email is not of the team’s domains');

    let user;
    try {
      user = await this.rpc.call(Rpc.ssoSignIn, { email }, meta);
    } catch (error) {
      if (error instanceof ApiHttpException && error.body.statusCode === 401) throw new SsoRefusal('no-account', 'no such account');
      throw error;
    }
    const state = await this.rpc.call(Rpc.ssoAccountState, { accountId: user.id }, meta);
    if (state.teamId !== provider.teamId) throw new SsoRefusal('other-team', 'the account is not of this team');
    return user;
  }

  private pendingKey(state: string): string {
    return `${this.config.REDIS_KEY_PREFIX}:sso-state:${sha256(state)}`;
  }

  /**
   * OpenID Connect discovery of the issuer; ID token signatures are checked against its keys. Every request of the
   * configuration (discovery, keys, token) connects only to public addresses, the ones it checked (`providerFetch`:
   * the name is resolved once, in the connection, so DNS rebinding reaches nothing inside). The client secret goes
   * to the token endpoint the way the provider's discovery document says it takes it (`tokenEndpointAuthMethod`).
   */
  private async discover(issuer: string, clientId: string, clientSecret: string | undefined): Promise<oidc.Configuration> {
    const url = new URL(issuer);
    const execute = [oidc.enableNonRepudiationChecks, ...(url.protocol === 'http:' ? [oidc.allowInsecureRequests] : [])];
    const found = await oidc.discovery(url, clientId, undefined, undefined, {
      execute,
      timeout: PROVIDER_TIMEOUT_SECONDS,
      [oidc.customFetch]: this.providerFetch,
    });
    if (clientSecret === undefined) return found;
    const server = found.serverMetadata();
    const auth =
      tokenEndpointAuthMethod(server.token_endpoint_auth_methods_supported) === 'client_secret_post'
        ? oidc.ClientSecretPost(clientSecret)
        : oidc.ClientSecretBasic(clientSecret);
    const config = new oidc.Configuration({ ...server }, clientId, undefined, auth);
    config.timeout = PROVIDER_TIMEOUT_SECONDS;
    config[oidc.customFetch] = this.providerFetch;
    for (const apply of execute) apply(config);
    return config;
  }
}

/**
 * How the client secret is sent to the token endpoint: HTTP Basic when the provider lists it, or lists nothing (the
 * default of OpenID Connect Discovery 1.0 and RFC 8414); in the body when it lists only that.
 */
export function tokenEndpointAuthMethod(supported: readonly string[] | undefined): 'client_secret_basic' | 'client_secret_post' {
  if (!supported || supported.length === 0 || supported.includes('client_secret_basic')) return 'client_secret_basic';
  return supported.includes('client_secret_post') ? 'client_secret_post' : 'client_secret_basic';
}

/** A short reason for the log: the library's message and code, never a token or a secret (they are not in these). */
function reasonOf(error: unknown): string {
  if (!(error instanceof Error)) return 'unknown';
  const code = (error as { code?: unknown }).code;
  // openid-client's messages are generic ("invalid response encountered"); oauth4webapi's cause says which check failed.
  const cause = error.cause instanceof Error && error.cause.message !== error.message ? ` (${error.cause.message})` : '';
  return `${error.name}${typeof code === 'string' ? ` ${code}` : ''}: ${error.message}${cause}`.slice(0, 300);
}

import { z } from 'zod';
import { emailAddress } from './fields.js';

/**
 * Single sign-on for teams (issue 27 item 1): a team leader connects the company's OpenID Connect provider; the
 * team's reps (and the leader) then sign in with their company account. The teams service keeps the settings (the
 * client secret only encrypted, with a key only the gateway holds); the gateway runs the authorization code flow
 * (openid-client) and starts its ordinary session (docs/decisions/0012-single-sign-on-in-the-gateway.md).
 */
export const SsoMessages = {
  issuerInvalid: 'Please enter the provider’s issuer URL, starting with https://.',
  issuerNotFound: 'We could not find an OpenID Connect provider at this issuer URL. Please check it.',
  issuerPrivate: 'This issuer URL points to a private network address. Please use your provider’s public issuer URL.',
  clientIdRequired: 'Please enter the client ID your provider gave you.',
  clientSecretRequired: 'Please enter the client secret your provider gave you.',
  domainsRequired: 'Please enter at least one email domain, e.g. example.co.za.',
  domainInvalid: 'Please enter email domains only, e.g. example.co.za (no @, no spaces).',
  domainTaken: 'This email domain already signs in through another team.',
  saved: 'Company sign-in saved.',
  removed: 'Company sign-in removed. Your reps sign in with their passwords again.',
  notSetUp: 'Company sign-in is not set up for this team.',
  /** No team's provider for the address (or the team link) typed on the login page. */
  noProvider: 'There is no company sign-in for this email address. Please sign in with your password.',
  /** The gateway has no SSO_SECRET_KEY: the feature is off on this server. */
  unavailable: 'Company sign-in is not available on this server.',
  providerUnreachable: 'We could not reach your company’s sign-in. Please try again in a moment.',
  /** Password sign-in of a rep whose team requires SSO. */
  required: 'Your team signs in with its company account. Please choose “Sign in with your company account”.',
  /** The errors the callback reports on the login page (`/login?sso_error=<code>`), by code. */
  errors: {
    expired: 'This sign-in has expired or was already used. Please start again.',
    failed: 'Your company’s sign-in could not be confirmed. Please try again, or ask your team leader.',
    'no-email': 'Your company account did not share a verified email address. Please ask your team leader.',
    'other-team': 'This company account is not a member of this team. Please sign in through your own team, or ask your team leader.',
    'no-account': 'There is no DigiCard account for this company email address. Please ask your team leader to add you.',
    cancelled: 'Sign-in with your company account was cancelled.',
    unavailable: 'We could not reach your company’s sign-in. Please try again in a moment.',
  },
} as const;
export type SsoErrorCode = keyof typeof SsoMessages.errors;
export const SsoErrorCodes = Object.keys(SsoMessages.errors) as SsoErrorCode[];

/** Presets the Teams section offers; any other OpenID Connect provider is typed in as it is. */
export const SsoPresets = [
  { id: 'google', name: 'Google Workspace', issuer: 'https://accounts.google.com' },
  { id: 'entra', name: 'Microsoft Entra ID', issuer: 'https://login.microsoftonline.com/{tenant}/v2.0' },
] as const;

/**
 * An issuer: https, or http only to this machine (a provider a developer or a test runs locally). No query or
 * fragment (OpenID Connect Discovery appends `/.well-known/openid-configuration` to it).
 */
export const issuerField = z
  .string({ error: SsoMessages.issuerInvalid })
  .trim()
  .min(1, SsoMessages.issuerInvalid)
  .max(500, SsoMessages.issuerInvalid)
  .refine((value) => {
    try {
      const url = new URL(value);
      const local = url.hostname === 'localhost' || url.hostname === '127.0.0.1' || url.hostname === '[::1]';
      return (url.protocol === 'https:' || (url.protocol === 'http:' && local)) && !url.search && !url.hash && !/[{}]/.test(value);
    } catch {
      return false;
    }
  }, SsoMessages.issuerInvalid);

/** An email domain, lower-cased: labels of letters, digits and hyphens, at least one dot. */
export const emailDomainField = z
  .string({ error: SsoMessages.domainInvalid })
  .trim()
  .toLowerCase()
  .regex(/^(?=.{3,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/, SsoMessages.domainInvalid);

/** What the leader saves. An empty client secret keeps the stored one (the browser never gets it back). */
export const SaveSsoSettingsSchema = z
  .object({
    issuer: issuerField,
    clientId: z.string({ error: SsoMessages.clientIdRequired }).trim().min(1, SsoMessages.clientIdRequired).max(255),
    clientSecret: z.string({ error: SsoMessages.clientSecretRequired }).trim().max(1024).default(''),
    domains: z
      .array(emailDomainField, { error: SsoMessages.domainsRequired })
      .min(1, SsoMessages.domainsRequired)
      .max(20, 'At most 20 email domains.')
      .refine((domains) => new Set(domains).size === domains.length, 'Each email domain only once, please.'),
    required: z.boolean().default(false),
  })
  .meta({ id: 'SaveSsoSettings' });
export type SaveSsoSettings = z.infer<typeof SaveSsoSettingsSchema>;

/** The settings as the leader sees them: never the secret, only whether one is stored. */
export const SsoSettingsSchema = z
  .object({
    configured: z.boolean(),
    issuer: z.string(),
    clientId: z.string(),
    hasClientSecret: z.boolean(),
    domains: z.array(z.string()),
    required: z.boolean(),
    /** The team's own sign-in link (`/login?team=<id>`), null until configured. */
    teamId: z.uuid().nullable(),
    /** Where the provider sends the browser back: the redirect URI to register with the provider. */
    redirectUri: z.string(),
  })
  .meta({ id: 'SsoSettings' });
export type SsoSettings = z.infer<typeof SsoSettingsSchema>;

/** The login page's "Sign in with your company account": by the email's domain, or by the team's link. */
export const SsoStartSchema = z
  .object({
    email: emailAddress.optional(),
    team: z.uuid('This team link is not valid.').optional(),
  })
  .strict()
  .refine((start) => start.email !== undefined || start.team !== undefined, {
    message: 'Please enter your work email address.',
    path: ['email'],
  })
  .meta({ id: 'SsoStart' });
export type SsoStart = z.infer<typeof SsoStartSchema>;

/** Where the browser goes next: the provider's authorization endpoint. */
export const SsoRedirectSchema = z.object({ redirectUrl: z.string() }).meta({ id: 'SsoRedirect' });

/** The provider's answer on the callback (RFC 6749 4.1.2 and 4.1.2.1; `iss` per RFC 9207). */
export const SsoCallbackQuerySchema = z
  .object({
    state: z.string().min(1).max(200),
    code: z.string().min(1).max(4096).optional(),
    iss: z.string().max(500).optional(),
    error: z.string().max(200).optional(),
    error_description: z.string().max(2000).optional(),
    session_state: z.string().max(500).optional(),
    scope: z.string().max(2000).optional(),
  })
  .meta({ id: 'SsoCallbackQuery' });

// Over the bus (teams' subjects).

/** The settings as teams stores them: the secret as the gateway's ciphertext (teams cannot read it). */
export const StoreSsoSettingsSchema = SaveSsoSettingsSchema.omit({ clientSecret: true }).extend({
  clientSecretCiphertext: z.string().max(4096).nullable(),
});
export const StoredSsoSettingsSchema = z.object({
  teamId: z.uuid().nullable(),
  issuer: z.string(),
  clientId: z.string(),
  hasClientSecret: z.boolean(),
  domains: z.array(z.string()),
  required: z.boolean(),
});

/** A team's provider, found by an email's domain or by the team's id, for the gateway's flow. */
export const SsoProviderQuerySchema = z.union([z.object({ email: z.string().max(254) }), z.object({ teamId: z.uuid() })]);
export const SsoProviderSchema = z.object({
  teamId: z.uuid(),
  issuer: z.string(),
  clientId: z.string(),
  clientSecretCiphertext: z.string(),
  domains: z.array(z.string()),
});

/** Which team's provider signs this account in (a current rep's team, or the leader's own), and whether password sign-in is refused. */
export const SsoAccountStateSchema = z.object({ teamId: z.uuid().nullable(), passwordRefused: z.boolean() });

import { createPublicKey, generateKeyPairSync, randomBytes, verify, type KeyObject } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** JSON as Google's API and the JWTs carry it. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests assert on the JSON's shape
export type GoogleJson = Record<string, any>;

/** A service account made for a test: an RSA key pair, as Google issues them, and its email. */
export interface GoogleTestCredentials {
  issuerId: string;
  serviceAccountEmail: string;
  privateKeyPem: string;
  publicKey: KeyObject;
  /** The profiles service's Google Wallet settings, pointed at the stand-in. */
  env(standIn: GoogleWalletStandIn): Record<string, string>;
}

export function makeGoogleTestCredentials(issuerId = '3388000000022210000'): GoogleTestCredentials {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const serviceAccountEmail = 'wallet-writer@digicard-test.iam.gserviceaccount.com';
  const privateKeyPem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  return {
    issuerId,
    serviceAccountEmail,
    privateKeyPem,
    publicKey,
    env: (standIn) => ({
      GOOGLE_WALLET_ISSUER_ID: issuerId,
      GOOGLE_WALLET_SERVICE_ACCOUNT_EMAIL: serviceAccountEmail,
      // As one-line env files carry it: the PEM with its line breaks written out.
      GOOGLE_WALLET_SERVICE_ACCOUNT_KEY: privateKeyPem.replace(/\n/g, '\\n'),
      GOOGLE_WALLET_API_URL: standIn.apiUrl,
      GOOGLE_OAUTH_TOKEN_URL: standIn.tokenUrl,
    }),
  };
}

/** A JWT's parts, its RS256 signature checked with the key; throws when the signature or the form is wrong. */
export function verifyRs256Jwt(jwt: string, key: KeyObject | string): { header: Record<string, unknown>; claims: GoogleJson } {
  const parts = jwt.split('.');
  if (parts.length !== 3) throw new Error('not a compact JWS');
  const [h, c, s] = parts as [string, string, string];
  const header = JSON.parse(Buffer.from(h, 'base64url').toString('utf8')) as Record<string, unknown>;
  if (header['alg'] !== 'RS256') throw new Error(`alg ${String(header['alg'])}, not RS256`);
  const publicKey = typeof key === 'string' ? createPublicKey(key) : key;
  if (!verify('sha256', Buffer.from(`${h}.${c}`, 'ascii'), publicKey, Buffer.from(s, 'base64url'))) throw new Error('bad signature');
  return { header, claims: JSON.parse(Buffer.from(c, 'base64url').toString('utf8')) as GoogleJson };
}

/** One call the stand-in took, after its checks. */
export interface GoogleWalletCall {
  method: string;
  path: string;
  /** The object id of an object call. */
  objectId: string | null;
  body: GoogleJson | null;
  status: number;
}

/**
 * Google's OAuth 2.0 token endpoint and the Wallet REST API's generic objects, on a local HTTP port. The token
 * endpoint checks the JWT-bearer grant (RS256 signature with the service account's public key; iss, scope, aud,
 * iat and exp); the API checks `Authorization: Bearer` against the tokens it issued. Objects exist once a test says
 * so (`saved`: its owner saved the link), as at Google; a PUT of another object is 404. `failNext` answers the
 * next calls 503 (Google busy).
 */
export class GoogleWalletStandIn {
  readonly calls: GoogleWalletCall[] = [];
  /** Assertions refused, and why. */
  readonly refused: string[] = [];
  readonly objects = new Map<string, GoogleJson>();
  private readonly tokens = new Set<string>();
  private server: Server | null = null;
  private failures = 0;
  private port = 0;

  constructor(private readonly credentials: Pick<GoogleTestCredentials, 'publicKey' | 'serviceAccountEmail'>) {}

  get baseUrl(): string {
    return `http://127.0.0.1:${this.port}`;
  }
  get apiUrl(): string {
    return this.baseUrl;
  }
  get tokenUrl(): string {
    return `${this.baseUrl}/token`;
  }

  /** The owner saved the object (Google created it from the save link's JWT). */
  saved(object: GoogleJson & { id: string }): void {
    this.objects.set(object.id, object);
  }

  failNext(count: number): void {
    this.failures = count;
  }

  /** Forgets every token issued: the next API call is 401, as for an expired token. */
  revokeTokens(): void {
    this.tokens.clear();
  }

  objectCalls(objectId: string): GoogleWalletCall[] {
    return this.calls.filter((c) => c.objectId === objectId);
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      void this.handle(req, res).catch((error: unknown) => {
        res.statusCode = 500;
        res.end(String(error));
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const path = (req.url ?? '').split('?')[0]!;
    const answer = (status: number, body: unknown, record: Omit<GoogleWalletCall, 'status'>) => {
      this.calls.push({ ...record, status });
      res.statusCode = status;
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(body));
    };
    if (req.method === 'POST' && path === '/token') {
      const form = new URLSearchParams(raw);
      const problem = this.assertionProblem(form);
      if (problem) {
        this.refused.push(problem);
        answer(400, { error: 'invalid_grant', error_description: problem }, { method: 'POST', path, objectId: null, body: null });
        return;
      }
      const token = randomBytes(24).toString('base64url');
      this.tokens.add(token);
      answer(200, { access_token: token, expires_in: 3599, token_type: 'Bearer' }, { method: 'POST', path, objectId: null, body: null });
      return;
    }
    const match = /^\/walletobjects\/v1\/genericObject\/([^/]+)$/.exec(path);
    if (!match) {
      answer(404, { error: { code: 404, message: 'no such path' } }, { method: req.method ?? '', path, objectId: null, body: null });
      return;
    }
    const objectId = decodeURIComponent(match[1]!);
    const body = raw ? (JSON.parse(raw) as GoogleJson) : null;
    const record = { method: req.method ?? '', path, objectId, body };
    const bearer = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '')?.[1];
    if (!bearer || !this.tokens.has(bearer)) {
      answer(401, { error: { code: 401, message: 'Request had invalid authentication credentials.' } }, record);
      return;
    }
    if (this.failures > 0) {
      this.failures -= 1;
      answer(503, { error: { code: 503, message: 'The service is currently unavailable.' } }, record);
      return;
    }
    if (req.method !== 'PUT' || !body || body['id'] !== objectId) {
      answer(400, { error: { code: 400, message: 'bad request' } }, record);
      return;
    }
    if (!this.objects.has(objectId)) {
      answer(404, { error: { code: 404, message: `No resource with id ${objectId}` } }, record);
      return;
    }
    this.objects.set(objectId, body);
    answer(200, body, record);
  }

  private assertionProblem(form: URLSearchParams): string | null {
    if (form.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:jwt-bearer') return 'grant_type';
    try {
      const { claims } = verifyRs256Jwt(form.get('assertion') ?? '', this.credentials.publicKey);
      const now = Math.floor(Date.now() / 1000);
      if (claims['iss'] !== this.credentials.serviceAccountEmail) return 'iss';
      if (claims['aud'] !== this.tokenUrl) return 'aud';
      if (claims['scope'] !== 'https://www.googleapis.com/auth/wallet_object.issuer') return 'scope';
      if (typeof claims['iat'] !== 'number' || Math.abs(claims['iat'] - now) > 300) return 'iat';
      if (typeof claims['exp'] !== 'number' || claims['exp'] <= now || claims['exp'] - claims['iat'] > 3600) return 'exp';
      return null;
    } catch (error) {
      return `assertion: ${(error as Error).message}`;
    }
  }
}

const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** `#rrggbb`'s relative luminance (WCAG), to pick the text colour Wallet would: dark on light, light on dark. */
function luminanceOf(hex: string): number {
  const n = Number.parseInt(hex.replace(/^#/, ''), 16);
  const channel = (v: number) => {
    const c = v / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel((n >> 16) & 255) + 0.7152 * channel((n >> 8) & 255) + 0.0722 * channel(n & 255);
}

interface LocalizedText {
  defaultValue?: { value?: string };
}
interface ImageView {
  sourceUri?: { uri?: string };
}
/** The fields of a GenericObject the preview draws. */
interface GenericObjectView {
  cardTitle?: LocalizedText;
  header?: LocalizedText;
  subheader?: LocalizedText;
  logo?: ImageView;
  heroImage?: ImageView;
  hexBackgroundColor?: string;
  state?: string;
  barcode?: { value?: string; alternateText?: string };
}

/**
 * A picture of a generic pass object as Google Wallet's default generic template lays it out (roughly: the card
 * title row with the logo masked into a circle, the subheader over the header, the QR code on white with its
 * alternate text, the hero image), as an HTML page for Chromium to screenshot: for a person (or a test) to look at
 * what the pass shows, without an Android phone. Images load from their URIs. Not Google's renderer.
 */
export async function googleWalletPreviewHtml(json: GoogleJson): Promise<string> {
  const { default: QRCode } = await import('qrcode');
  const object = json as GenericObjectView;
  const text = (field: LocalizedText | undefined): string => escapeHtml(field?.defaultValue?.value ?? '');
  const background = object.hexBackgroundColor ?? '#ffffff';
  const foreground = luminanceOf(background) > 0.4 ? '#1f1f1f' : '#ffffff';
  const logo = object.logo?.sourceUri?.uri;
  const hero = object.heroImage?.sourceUri?.uri;
  const barcode = object.barcode;
  const qr = barcode?.value ? await QRCode.toDataURL(barcode.value, { margin: 1, width: 480 }) : null;
  return `<!doctype html><html><head><meta charset="utf-8"><style>
    body { margin: 0; padding: 16px; background: #f1f3f4; font-family: 'DejaVu Sans', sans-serif; }
    .card { width: 360px; border-radius: 24px; overflow: hidden; background: ${background}; color: ${foreground}; }
    .title { display: flex; align-items: center; gap: 12px; padding: 20px 20px 8px; font-size: 16px; }
    .logo { width: 40px; height: 40px; border-radius: 50%; object-fit: cover; background: #ffffff; }
    .subheader { padding: 12px 20px 0; font-size: 14px; opacity: 0.85; }
    .header { padding: 2px 20px 16px; font-size: 28px; line-height: 1.2; }
    .barcode { margin: 8px auto 0; width: 200px; padding: 12px; border-radius: 12px; background: #ffffff; text-align: center; }
    .barcode img { width: 176px; height: 176px; display: block; margin: 0 auto; }
    .alt { color: #1f1f1f; font-size: 12px; margin-top: 6px; word-break: break-all; }
    .hero { display: block; width: 100%; margin-top: 20px; }
    .pad { height: 20px; }
    .state { padding: 0 20px; font-size: 14px; font-weight: bold; }
  </style></head><body><div class="card">
    <div class="title">${logo ? `<img class="logo" alt="" src="${escapeHtml(logo)}">` : ''}<span>${text(object.cardTitle)}</span></div>
    ${object.subheader ? `<div class="subheader">${text(object.subheader)}</div>` : ''}
    <div class="header">${text(object.header)}</div>
    ${object.state && object.state !== 'ACTIVE' ? `<div class="state">${escapeHtml(object.state)}</div>` : ''}
    ${qr ? `<div class="barcode"><img alt="" src="${qr}"><div class="alt">${escapeHtml(barcode?.alternateText ?? '')}</div></div>` : ''}
    ${hero ? `<img class="hero" alt="" src="${escapeHtml(hero)}">` : '<div class="pad"></div>'}
  </div></body></html>`;
}

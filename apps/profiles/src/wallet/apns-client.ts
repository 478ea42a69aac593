import { sign } from 'node:crypto';
import { connect, constants, type ClientHttp2Session } from 'node:http2';
import type { AppleWallet } from './apple-config.js';

/** What APNs said of one push. */
export type ApnsOutcome =
  | { status: 'sent'; apnsId: string | null }
  /** The device token is no longer valid for the topic (410 Unregistered, 400 BadDeviceToken): forget the registration. */
  | { status: 'gone'; reason: string }
  /** Worth trying again later (429, 5xx, our token refused, the connection): the job's retries do. */
  | { status: 'retry'; reason: string };

const base64url = (value: string | Buffer): string => Buffer.from(value).toString('base64url');

/**
 * Token-based APNs authentication: a JWT signed ES256 with the APNs key (header `kid`, claims `iss` team and `iat`).
 * Apple wants one token reused for between 20 and 60 minutes, so it is made again every 40.
 */
export class ApnsToken {
  private current: { token: string; at: number } | null = null;

  constructor(
    private readonly wallet: Pick<AppleWallet, 'apnsKey' | 'apnsKeyId' | 'teamIdentifier'>,
    private readonly now: () => number = Date.now,
  ) {}

  get(): string {
    const now = this.now();
    if (this.current && now - this.current.at < 40 * 60_000) return this.current.token;
    const header = base64url(JSON.stringify({ alg: 'ES256', kid: this.wallet.apnsKeyId }));
    const claims = base64url(JSON.stringify({ iss: this.wallet.teamIdentifier, iat: Math.floor(now / 1000) }));
    const signature = sign('sha256', Buffer.from(`${header}.${claims}`), { key: this.wallet.apnsKey, dsaEncoding: 'ieee-p1363' });
    this.current = { token: `${header}.${claims}.${base64url(signature)}`, at: now };
    return this.current.token;
  }

  /** APNs refused the token (403 ExpiredProviderToken / InvalidProviderToken): make a new one next time. */
  reset(): void {
    this.current = null;
  }
}

/**
 * The APNs provider API over HTTP/2 (`POST /3/device/<token>`), one connection kept open and made again when it
 * closes. A pass update is an empty JSON payload to the pass type identifier's topic: the device then asks our web
 * service which of its passes changed.
 */
export class ApnsClient {
  private session: ClientHttp2Session | null = null;
  private readonly token: ApnsToken;

  constructor(
    private readonly wallet: Pick<AppleWallet, 'apnsUrl' | 'apnsCa' | 'apnsKey' | 'apnsKeyId' | 'teamIdentifier' | 'passTypeIdentifier'>,
    private readonly timeoutMs = 10_000,
  ) {
    this.token = new ApnsToken(wallet);
  }

  private connection(): ClientHttp2Session {
    if (this.session && !this.session.closed && !this.session.destroyed) return this.session;
    const session = connect(this.wallet.apnsUrl, this.wallet.apnsCa ? { ca: this.wallet.apnsCa } : {});
    session.on('error', () => undefined); // each request reports its own failure
    session.on('close', () => {
      if (this.session === session) this.session = null;
    });
    session.unref();
    this.session = session;
    return session;
  }

  async push(pushToken: string): Promise<ApnsOutcome> {
    let session: ClientHttp2Session;
    try {
      session = this.connection();
    } catch (error) {
      return { status: 'retry', reason: `connection: ${error instanceof Error ? error.message : String(error)}` };
    }
    return new Promise<ApnsOutcome>((resolve) => {
      const request = session.request({
        [constants.HTTP2_HEADER_METHOD]: 'POST',
        [constants.HTTP2_HEADER_PATH]: `/3/device/${pushToken}`,
        authorization: `bearer ${this.token.get()}`,
        'apns-topic': this.wallet.passTypeIdentifier,
        'apns-push-type': 'background',
        'apns-priority': '5',
        'content-type': 'application/json',
      });
      let status = 0;
      let apnsId: string | null = null;
      let body = '';
      const timer = setTimeout(() => {
        request.close(constants.NGHTTP2_CANCEL);
        resolve({ status: 'retry', reason: `no answer within ${this.timeoutMs} ms` });
      }, this.timeoutMs);
      request.on('response', (headers) => {
        status = Number(headers[constants.HTTP2_HEADER_STATUS]);
        const id = headers['apns-id'];
        apnsId = typeof id === 'string' ? id : null;
      });
      request.setEncoding('utf8');
      request.on('data', (chunk: string) => {
        if (body.length < 2000) body += chunk;
      });
      request.on('error', (error: Error) => {
        clearTimeout(timer);
        resolve({ status: 'retry', reason: `request: ${error.message}` });
      });
      request.on('end', () => {
        clearTimeout(timer);
        resolve(this.outcome(status, apnsId, body));
      });
      request.end('{}');
    });
  }

  private outcome(status: number, apnsId: string | null, body: string): ApnsOutcome {
    if (status === 200) return { status: 'sent', apnsId };
    let reason = `HTTP ${status}`;
    try {
      const parsed = JSON.parse(body) as { reason?: unknown };
      if (typeof parsed.reason === 'string') reason = parsed.reason;
    } catch {
      /* APNs answers JSON; anything else keeps the status */
    }
    if (status === 410 || (status === 400 && (reason === 'BadDeviceToken' || reason === 'DeviceTokenNotForTopic')))
      return { status: 'gone', reason };
    if (status === 403 && /ProviderToken/.test(reason)) this.token.reset();
    return { status: 'retry', reason };
  }

  close(): void {
    this.session?.close();
    this.session = null;
  }
}

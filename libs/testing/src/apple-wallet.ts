import { execFileSync } from 'node:child_process';
import { createHash, createPublicKey, verify, type KeyObject } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createSecureServer, type Http2SecureServer } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inflateRawSync } from 'node:zlib';

/**
 * A throwaway Apple Wallet setup made with the openssl CLI in a temporary folder: a certificate authority standing in
 * for Apple's WWDR, a pass type certificate it signed (UID = the pass type identifier, OU = the team), its key
 * encrypted with a passphrase, an APNs authentication key (EC P-256, as Apple's .p8), and a self-signed TLS
 * certificate for a local APNs stand-in on 127.0.0.1. Nothing here is trusted anywhere else.
 */
export interface AppleTestCredentials {
  dir: string;
  passTypeIdentifier: string;
  teamIdentifier: string;
  apnsKeyId: string;
  /** PEM texts. */
  wwdr: string;
  signerCert: string;
  signerKey: string;
  signerKeyPassphrase: string;
  apnsKey: string;
  apnsPublicKey: KeyObject;
  tlsCert: string;
  tlsKey: string;
  /** The files, for `openssl smime -verify -CAfile`. */
  wwdrFile: string;
  /** The environment the profiles service turns Apple Wallet on with (APNS_URL and the rest added by the test). */
  env(apnsUrl: string): Record<string, string>;
  remove(): void;
}

const openssl = (args: string[], cwd: string): void => {
  execFileSync('openssl', args, { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
};

export function makeAppleTestCredentials(
  passTypeIdentifier = 'pass.test.digicard.card',
  teamIdentifier = 'TEAM123456',
): AppleTestCredentials {
  const dir = mkdtempSync(join(tmpdir(), 'digicard-apple-'));
  const passphrase = 'throwaway-pass-key';
  openssl(
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      'wwdr.key',
      '-out',
      'wwdr.pem',
      '-days',
      '2',
      '-subj',
      '/CN=Test WWDR Authority/OU=G4/O=Throwaway/C=ZA',
      '-addext',
      'basicConstraints=critical,CA:TRUE',
      '-addext',
      'keyUsage=critical,keyCertSign,cRLSign',
    ],
    dir,
  );
  openssl(
    [
      'req',
      '-newkey',
      'rsa:2048',
      '-keyout',
      'signer.key',
      '-passout',
      `pass:${passphrase}`,
      '-out',
      'signer.csr',
      '-subj',
      `/UID=${passTypeIdentifier}/CN=Pass Type ID: ${passTypeIdentifier}/OU=${teamIdentifier}/O=Throwaway/C=ZA`,
    ],
    dir,
  );
  writeFileSync(join(dir, 'signer.ext'), 'basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature\n');
  openssl(
    [
      'x509',
      '-req',
      '-in',
      'signer.csr',
      '-CA',
      'wwdr.pem',
      '-CAkey',
      'wwdr.key',
      '-CAcreateserial',
      '-out',
      'signer.pem',
      '-days',
      '2',
      '-extfile',
      'signer.ext',
    ],
    dir,
  );
  openssl(['genpkey', '-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:P-256', '-out', 'apns.p8'], dir);
  openssl(
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:P-256',
      '-nodes',
      '-keyout',
      'tls.key',
      '-out',
      'tls.pem',
      '-days',
      '2',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1,DNS:localhost',
    ],
    dir,
  );
  const read = (name: string) => readFileSync(join(dir, name), 'utf8');
  const credentials: AppleTestCredentials = {
    dir,
    passTypeIdentifier,
    teamIdentifier,
    apnsKeyId: 'KEY1234567',
    wwdr: read('wwdr.pem'),
    signerCert: read('signer.pem'),
    signerKey: read('signer.key'),
    signerKeyPassphrase: passphrase,
    apnsKey: read('apns.p8'),
    apnsPublicKey: createPublicKey(read('apns.p8')),
    tlsCert: read('tls.pem'),
    tlsKey: read('tls.key'),
    wwdrFile: join(dir, 'wwdr.pem'),
    env: (apnsUrl) => ({
      APPLE_PASS_TYPE_ID: passTypeIdentifier,
      APPLE_TEAM_ID: teamIdentifier,
      APPLE_PASS_CERT: credentials.signerCert,
      // One of the forms deployments use: the PEM in base64, on one line.
      APPLE_PASS_KEY: Buffer.from(credentials.signerKey).toString('base64'),
      APPLE_PASS_KEY_PASSPHRASE: passphrase,
      // Another: the PEM with its line breaks written as \n.
      APPLE_WWDR_CERT: credentials.wwdr.replace(/\n/g, '\\n'),
      APNS_KEY_ID: credentials.apnsKeyId,
      APNS_KEY: credentials.apnsKey,
      APNS_URL: apnsUrl,
      APNS_CA: credentials.tlsCert,
    }),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
  return credentials;
}

/** One request the APNs stand-in received. */
export interface ApnsRequest {
  path: string;
  deviceToken: string;
  headers: Record<string, string>;
  body: string;
  /** The bearer JWT's header and claims, and whether its ES256 signature verifies with the APNs key. */
  jwt: { header: Record<string, unknown>; claims: Record<string, unknown>; valid: boolean } | null;
  at: number;
}

/**
 * A local APNs over HTTP/2 with TLS (node:http2, the throwaway certificate), recording every push. `respond` decides
 * each answer (200 by default; e.g. 410 Unregistered, 500 to see a retry).
 */
export class ApnsStandIn {
  readonly received: ApnsRequest[] = [];
  respond: (request: ApnsRequest) => { status: number; reason?: string } = () => ({ status: 200 });
  private server: Http2SecureServer | null = null;

  constructor(private readonly credentials: Pick<AppleTestCredentials, 'tlsCert' | 'tlsKey' | 'apnsPublicKey'>) {}

  get url(): string {
    return `https://127.0.0.1:${(this.server!.address() as AddressInfo).port}`;
  }

  async start(): Promise<this> {
    this.server = createSecureServer({ cert: this.credentials.tlsCert, key: this.credentials.tlsKey, allowHTTP1: false });
    this.server.on('stream', (stream, headers) => {
      let body = '';
      stream.setEncoding('utf8');
      stream.on('data', (chunk: string) => (body += chunk));
      stream.on('end', () => {
        const path = String(headers[':path']);
        const flat = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, String(v)]));
        const request: ApnsRequest = {
          path,
          deviceToken: path.replace(/^\/3\/device\//, ''),
          headers: flat,
          body,
          jwt: this.jwtOf(flat['authorization']),
          at: Date.now(),
        };
        this.received.push(request);
        const answer = this.respond(request);
        stream.respond({
          ':status': answer.status,
          'apns-id': `00000000-0000-4000-8000-${String(this.received.length).padStart(12, '0')}`,
        });
        stream.end(answer.status === 200 ? '' : JSON.stringify({ reason: answer.reason ?? 'InternalServerError' }));
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return this;
  }

  private jwtOf(authorization: string | undefined): ApnsRequest['jwt'] {
    const token = /^bearer (.+)$/.exec(authorization ?? '')?.[1];
    if (!token) return null;
    const [header, claims, signature] = token.split('.');
    if (!header || !claims || !signature) return null;
    const valid = verify(
      'sha256',
      Buffer.from(`${header}.${claims}`),
      { key: this.credentials.apnsPublicKey, dsaEncoding: 'ieee-p1363' },
      Buffer.from(signature, 'base64url'),
    );
    const json = (part: string) => JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as Record<string, unknown>;
    return { header: json(header), claims: json(claims), valid };
  }

  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

/** The files of a .pkpass (a zip: stored or deflated entries, read from its central directory). */
export function unzipPass(zip: Buffer): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  let end = zip.length - 22;
  while (end >= 0 && zip.readUInt32LE(end) !== 0x06054b50) end -= 1;
  if (end < 0) throw new Error('not a zip file');
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  for (let i = 0; i < count; i += 1) {
    if (zip.readUInt32LE(at) !== 0x02014b50) throw new Error('bad central directory');
    const method = zip.readUInt16LE(at + 10);
    const compressed = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const extra = zip.readUInt16LE(at + 30);
    const comment = zip.readUInt16LE(at + 32);
    const local = zip.readUInt32LE(at + 42);
    const name = zip.toString('utf8', at + 46, at + 46 + nameLength);
    const dataAt = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const raw = zip.subarray(dataAt, dataAt + compressed);
    files.set(name, method === 8 ? inflateRawSync(raw) : Buffer.from(raw));
    at += 46 + nameLength + extra + comment;
  }
  return files;
}

export const sha1Hex = (data: Buffer): string => createHash('sha1').update(data).digest('hex');

/**
 * Verifies a pass's detached PKCS#7 signature of manifest.json with OpenSSL (`smime` and `cms`), trusting only the
 * given authority: what each command said, and whether it verified; the signing certificates; the structure as
 * `openssl cms -cmsout -print` shows it.
 */
export function verifyPassSignature(
  files: Map<string, Buffer>,
  caFile: string,
): { smime: { ok: boolean; output: string }; cms: { ok: boolean; output: string }; signer: string; structure: string } {
  const dir = mkdtempSync(join(tmpdir(), 'digicard-pkpass-'));
  try {
    writeFileSync(join(dir, 'manifest.json'), files.get('manifest.json') ?? Buffer.alloc(0));
    writeFileSync(join(dir, 'signature'), files.get('signature') ?? Buffer.alloc(0));
    const run = (args: string[]) => {
      try {
        return { ok: true, output: execFileSync('openssl', args, { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }) };
      } catch (error) {
        const e = error as { stderr?: string; stdout?: string };
        return { ok: false, output: `${e.stdout ?? ''}${e.stderr ?? ''}` };
      }
    };
    const common = [
      '-binary',
      '-inform',
      'DER',
      '-in',
      'signature',
      '-content',
      'manifest.json',
      '-CAfile',
      caFile,
      '-purpose',
      'any',
      '-out',
      '/dev/null',
    ];
    const smime = run(['smime', '-verify', ...common]);
    const cms = run(['cms', '-verify', ...common]);
    const signer = run(['pkcs7', '-inform', 'DER', '-in', 'signature', '-print_certs', '-noout']).output;
    const structure = run(['cms', '-cmsout', '-print', '-inform', 'DER', '-in', 'signature']).output;
    return { smime, cms, signer, structure };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const escapeXml = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!);

/**
 * A picture of a generic pass as Wallet lays it out (roughly: the header with the logo or logo text, the primary
 * field, the secondary fields, the QR code with its alt text), drawn from the pass's own files (pass.json, logo@2x,
 * thumbnail@2x) at 2x: for a person (or a test) to look at what a pass shows, without an iPhone. Not Apple's renderer.
 */
export async function renderApplePassPreview(files: Map<string, Buffer>): Promise<Buffer> {
  const { default: sharp } = await import('sharp');
  const { default: QRCode } = await import('qrcode');
  const pass = JSON.parse(files.get('pass.json')!.toString('utf8')) as {
    backgroundColor?: string;
    foregroundColor?: string;
    labelColor?: string;
    logoText?: string;
    voided?: boolean;
    generic?: Record<string, Array<{ label?: string; value: string }>>;
    barcodes?: Array<{ message: string; altText?: string }>;
  };
  const background = pass.backgroundColor ?? 'rgb(255, 255, 255)';
  const foreground = pass.foregroundColor ?? 'rgb(0, 0, 0)';
  const label = pass.labelColor ?? foreground;
  const generic = pass.generic ?? {};
  const width = 640;
  const height = 880;
  const text = (x: number, y: number, size: number, fill: string, value: string, weight = 'normal') =>
    `<text x="${x}" y="${y}" font-family="DejaVu Sans, sans-serif" font-size="${size}" font-weight="${weight}" fill="${fill}">${escapeXml(value)}</text>`;
  const parts: string[] = [`<rect width="${width}" height="${height}" rx="24" fill="${background}"/>`];
  if (pass.logoText) parts.push(text(files.has('logo@2x.png') ? 360 : 32, 64, 30, foreground, pass.logoText, 'bold'));
  const primary = generic['primaryFields']?.[0];
  if (primary) {
    parts.push(text(32, 180, 22, label, (primary.label ?? '').toUpperCase()));
    parts.push(text(32, 232, 44, foreground, primary.value));
  }
  (generic['secondaryFields'] ?? []).forEach((field, i) => {
    parts.push(text(32 + i * 300, 300, 20, label, (field.label ?? '').toUpperCase()));
    parts.push(text(32 + i * 300, 336, 28, foreground, field.value));
  });
  if (pass.voided) parts.push(text(32, 420, 28, label, 'VOID'));
  const barcode = pass.barcodes?.[0];
  if (barcode?.altText)
    parts.push(
      `<text x="${width / 2}" y="${height - 40}" text-anchor="middle" font-family="DejaVu Sans, sans-serif" font-size="20" fill="${foreground}">${escapeXml(barcode.altText)}</text>`,
    );
  const layers: Array<{ input: Buffer; left: number; top: number }> = [];
  if (files.has('logo@2x.png')) layers.push({ input: files.get('logo@2x.png')!, left: 24, top: 16 });
  if (files.has('thumbnail@2x.png'))
    layers.push({ input: await sharp(files.get('thumbnail@2x.png')).resize(120, 120).png().toBuffer(), left: width - 152, top: 150 });
  if (barcode) {
    const qr = await QRCode.toBuffer(barcode.message, { type: 'png', width: 320, margin: 2 });
    layers.push({ input: qr, left: (width - 320) / 2, top: height - 400 });
  }
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">${parts.join('')}</svg>`;
  return sharp(Buffer.from(svg)).composite(layers).png().toBuffer();
}

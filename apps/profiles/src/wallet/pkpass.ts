import { createHash, createPrivateKey, privateEncrypt, constants, type KeyObject } from 'node:crypto';
import { crc32 } from 'node:zlib';
import forge from 'node-forge';

/**
 * A `.pkpass` as Apple's "PassKit Package Format" describes it, built here rather than with passkit-generator, whose
 * signing is node-forge's pure-JavaScript RSA (not constant-time, a quarter of a second of CPU per pass, and ten
 * seconds under Jest's module sandbox): the files, `manifest.json` (each file's SHA-1, hex), and `signature`, a
 * detached PKCS#7 SignedData of the manifest. node-forge writes the PKCS#7 structure; the RSA signature itself is
 * node:crypto's (OpenSSL), over the DigestInfo of the signed attributes' SHA-256.
 */

/** DigestInfo prefixes (RFC 8017 9.2, note 1) of the digests a signer may use. */
const DIGEST_INFO: Record<string, Buffer> = {
  sha256: Buffer.from('3031300d060960864801650304020105000420', 'hex'),
  sha1: Buffer.from('3021300906052b0e03021a05000414', 'hex'),
};

/** A signer node-forge's PKCS#7 can use whose RSA operation is node:crypto's. */
function cryptoSigner(key: KeyObject): { sign(md: forge.md.MessageDigest): string } {
  return {
    sign(md) {
      const prefix = DIGEST_INFO[md.algorithm];
      if (!prefix) throw new Error(`no DigestInfo for ${md.algorithm}`);
      const digest = Buffer.from(md.digest().getBytes(), 'binary');
      return privateEncrypt({ key, padding: constants.RSA_PKCS1_PADDING }, Buffer.concat([prefix, digest])).toString('binary');
    },
  };
}

export interface PassSigner {
  /** The pass type certificate, its (unencrypted) RSA key, and Apple's WWDR intermediate, PEM. */
  signerCert: string;
  signerKey: string;
  wwdr: string;
}

/** The detached PKCS#7 signature (DER) of `manifest`: signed attributes content type, message digest, signing time. */
export function manifestSignature(manifest: Buffer, signer: PassSigner, signingTime = new Date()): Buffer {
  const certificate = forge.pki.certificateFromPem(signer.signerCert);
  const p7 = forge.pkcs7.createSignedData();
  p7.content = forge.util.createBuffer(manifest.toString('binary'));
  p7.addCertificate(forge.pki.certificateFromPem(signer.wwdr));
  p7.addCertificate(certificate);
  p7.addSigner({
    key: cryptoSigner(createPrivateKey(signer.signerKey)) as unknown as forge.pki.rsa.PrivateKey,
    certificate,
    digestAlgorithm: forge.pki.oids.sha256!,
    authenticatedAttributes: [
      { type: forge.pki.oids.contentType!, value: forge.pki.oids.data! },
      { type: forge.pki.oids.messageDigest! },
      // Wallet wants the signing time among the signed attributes.
      { type: forge.pki.oids.signingTime!, value: signingTime as unknown as string },
    ],
  });
  p7.sign({ detached: true });
  return Buffer.from(forge.asn1.toDer(p7.toAsn1()).getBytes(), 'binary');
}

/** manifest.json: every file's SHA-1 in hex. */
export function manifestOf(files: Readonly<Record<string, Buffer>>): Buffer {
  const manifest = Object.fromEntries(Object.entries(files).map(([name, data]) => [name, createHash('sha1').update(data).digest('hex')]));
  return Buffer.from(JSON.stringify(manifest));
}

/** A zip of the files, stored (a pass's PNGs and JSON gain little from deflate), as Wallet reads it. */
export function zipOf(files: Readonly<Record<string, Buffer>>): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [name, data] of Object.entries(files)) {
    const fileName = Buffer.from(name, 'utf8');
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4); // version needed
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(0, 8); // stored
    local.writeUInt32LE(0, 10); // time, date
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(fileName.length, 26);
    local.writeUInt16LE(0, 28);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(0, 10);
    central.writeUInt32LE(0, 12);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(fileName.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, fileName, data);
    centrals.push(central, fileName);
    offset += local.length + fileName.length + data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(centrals.length / 2, 8);
  end.writeUInt16LE(centrals.length / 2, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/** The whole package: the files, their manifest, the manifest's signature. */
export function pkpassOf(files: Readonly<Record<string, Buffer>>, signer: PassSigner): Buffer {
  const manifest = manifestOf(files);
  return zipOf({ ...files, 'manifest.json': manifest, signature: manifestSignature(manifest, signer) });
}

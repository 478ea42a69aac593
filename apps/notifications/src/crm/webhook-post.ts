import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { CheckedTarget } from './address-policy.js';

export interface PostOutcome {
  /** The HTTP status, or null when there was no answer. */
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  /** The first 200 characters of the answer (never more is kept). */
  excerpt: string | null;
}

const EXCERPT_CHARS = 200;
const READ_LIMIT_BYTES = 1024;

/**
 * One POST to a checked target: connects to the address that was checked (never resolves the name again), sends
 * the name for TLS (SNI and the certificate check), follows no redirect (a 3xx is an answer like any other), gives
 * up after `timeoutMs` in all, and reads at most 1 kB of the answer.
 */
export function postWebhook(target: CheckedTarget, headers: Record<string, string>, body: string, timeoutMs: number): Promise<PostOutcome> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const pinned: LookupFunction = (_hostname, options, callback) => {
    if ((options as { all?: boolean }).all)
      (callback as unknown as (e: null, a: Array<{ address: string; family: number }>) => void)(null, [
        { address: target.address, family: target.family },
      ]);
    else callback(null, target.address, target.family);
  };
  const client = target.url.protocol === 'https:' ? https : http;
  return new Promise<PostOutcome>((resolve) => {
    let settled = false;
    const finish = (outcome: Omit<PostOutcome, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...outcome, durationMs: elapsed() });
    };
    const req = client.request(
      target.url,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(body)),
          'user-agent': 'DigiCard-Webhooks/1.0',
          ...headers,
        },
        lookup: pinned,
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        let bytes = 0;
        const done = () => {
          const text = Buffer.concat(chunks).toString('utf8').slice(0, EXCERPT_CHARS);
          finish({ statusCode: res.statusCode ?? null, error: null, excerpt: text || null });
        };
        res.on('data', (chunk: Buffer) => {
          if (bytes < READ_LIMIT_BYTES) chunks.push(chunk.subarray(0, READ_LIMIT_BYTES - bytes));
          bytes += chunk.length;
          if (bytes >= READ_LIMIT_BYTES) {
            done();
            res.destroy();
          }
        });
        res.on('end', done);
        res.on('error', done);
        res.on('close', done);
      },
    );
    const timer = setTimeout(() => {
      finish({ statusCode: null, error: `timed out after ${timeoutMs} ms`, excerpt: null });
      req.destroy();
    }, timeoutMs);
    req.on('error', (error: NodeJS.ErrnoException) =>
      finish({ statusCode: null, error: error.code ? `${error.code}: ${error.message}` : error.message, excerpt: null }),
    );
    req.end(body);
  });
}

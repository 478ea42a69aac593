import type { IncomingMessage, ServerResponse } from 'node:http';

/** Bodies above this are refused: no PayFast form, ITN or API call comes near it. */
export const MAX_BODY_BYTES = 256 * 1024;

export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new HttpError(413, `body larger than ${MAX_BODY_BYTES} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Form fields in the order they were sent (PayFast's signatures depend on order). `+` is a space, as in forms. */
export function formPairs(text: string): Array<[string, string]> {
  return [...new URLSearchParams(text)];
}

const contentType = (req: IncomingMessage): string => (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();

/** A flat JSON object or a form as ordered string pairs; a nested value or broken JSON is the caller's 400. */
export async function readFields(req: IncomingMessage): Promise<Array<[string, string]>> {
  const text = await readBody(req);
  if (text.trim() === '') return [];
  if (contentType(req) !== 'application/json') return formPairs(text);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new HttpError(400, 'body is not valid JSON');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new HttpError(400, 'body must be a JSON object');
  return Object.entries(parsed).map(([k, v]): [string, string] => {
    if (v !== null && typeof v === 'object') throw new HttpError(400, `${k} must be a plain value, not an object`);
    return [k, v === null ? '' : String(v as string | number | boolean)];
  });
}

export const escapeHtml = (value: string): string =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

export function sendHtml(res: ServerResponse, status: number, html: string): void {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(html);
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

export function sendText(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' }).end(text);
}

/** 303 See Other: the browser follows with a GET, as after PayFast's own Pay and Cancel buttons. */
export function redirect(res: ServerResponse, location: string, headers: Record<string, string> = {}): void {
  res.writeHead(303, { location, ...headers }).end();
}

/** A JSON object body for the control API; an empty body is `{}`. */
export async function readJson(req: IncomingMessage): Promise<unknown> {
  const text = await readBody(req);
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new HttpError(400, 'body is not valid JSON');
  }
}

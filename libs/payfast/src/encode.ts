import { createHash } from 'node:crypto';

/**
 * PHP `urlencode` as PayFast computes signatures with it: UTF-8 bytes, `A-Za-z0-9-_.` left alone, space as `+`,
 * everything else as `%XX` with UPPERCASE hex (so `~` is `%7E`, `*` `%2A`, `!` `%21`, `'` `%27`, `(` `%28`, `)` `%29`).
 */
export function pfEncode(value: string): string {
  return encodeURIComponent(value)
    .replace(/[!'()*~]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase())
    .replace(/%20/g, '+');
}

export function md5Hex(input: string): string {
  return createHash('md5').update(input, 'utf8').digest('hex');
}

export type Fields = ReadonlyArray<readonly [string, string]> | Readonly<Record<string, string>>;

export function toPairs(fields: Fields): Array<[string, string]> {
  if (Array.isArray(fields)) return (fields as ReadonlyArray<readonly [string, string]>).map(([k, v]) => [k, v]);
  return Object.entries(fields as Readonly<Record<string, string>>);
}

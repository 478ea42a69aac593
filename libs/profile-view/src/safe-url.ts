/** A base no real URL shares, to tell whether a root-relative path stays on our own origin. */
const LOCAL = 'http://local.invalid';

const hasControlOrBackslash = (value: string): boolean => {
  for (let i = 0; i < value.length; i += 1) {
    const code = value.charCodeAt(i);
    if (code < 0x20 || code === 0x7f || code === 0x5c) return true;
  }
  return false;
};

/**
 * The link or image address to render, or `undefined` when it is not one we render: only absolute http(s) URLs
 * (returned normalised, as the browser will read them) and root-relative paths on our own origin (`/media/...`,
 * `/api/profiles/{username}/vcard`). `javascript:`, `data:`, `//host`, `/\host` and anything else are refused,
 * even though the server validates the profile: the dashboard preview renders unsaved input too.
 */
export function safeHref(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const raw = value.trim();
  if (raw === '' || raw.length > 2048 || hasControlOrBackslash(raw)) return undefined;
  try {
    if (raw.startsWith('/')) {
      if (raw.startsWith('//')) return undefined;
      const url = new URL(raw, LOCAL);
      return url.origin === LOCAL ? `${url.pathname}${url.search}${url.hash}` : undefined;
    }
    const url = new URL(raw);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname !== '' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/** `href` made absolute against `base` (an absolute http(s) URL), or `undefined` when either is unsafe. */
export function absoluteUrl(href: string, base: string): string | undefined {
  const safe = safeHref(href);
  const safeBase = safeHref(base);
  if (safe === undefined) return undefined;
  if (!safe.startsWith('/')) return safe;
  if (safeBase === undefined || safeBase.startsWith('/')) return undefined;
  return new URL(safe, safeBase).href;
}

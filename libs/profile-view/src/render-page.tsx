import { renderToStaticMarkup } from 'react-dom/server';
import { LeadThanks, type PublicProfile } from '@digicard/contracts';
import { colour } from './colours.js';
import { profileCss } from './profile-css.js';
import { ProfileView, type ProfileViewUrls } from './profile-view.js';
import { absoluteUrl, safeHref } from './safe-url.js';

export interface ProfilePageOptions {
  profile: PublicProfile;
  brandName: string;
  /** The marketing site's home, linked from "Powered By {brandName}". */
  siteUrl: string;
  /** This page's absolute URL (canonical, og:url, and the base for og:image). */
  profileUrl: string;
  urls: ProfileViewUrls;
  /** The page script, e.g. `/assets/profile-page.js?v={clientScript().hash}`. */
  scriptUrl: string;
  /** Optional banner above the card, e.g. for the owner viewing an unverified (not yet shared) profile. */
  notice?: string;
}

/** What the page script reads from `<script type="application/json" id="profile-data">`. */
export interface ProfilePageData {
  leadsUrl: string;
  /** The click beacon's address ('' for none). */
  clicksUrl: string;
  thanks: typeof LeadThanks;
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text or attribute value escaped for HTML. */
export const escapeHtml = (value: string): string => value.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] ?? c);

/** JSON safe inside a `<script>` element: no `<`, `>`, `&` or line separators survive unescaped. */
export const jsonForHtml = (value: unknown): string =>
  JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

const clip = (text: string, max: number): string => (text.length <= max ? text : `${text.slice(0, max - 1).trimEnd()}…`);

/** Wider screens: the card sits in the middle of a neutral page. */
const pageCss =
  'html{background:#e6e6e6}body{margin:0}main{display:block}.pv{min-height:100vh}' +
  '.pv-notice{max-width:480px;margin:0 auto;padding:10px 16px;background:#fff4ce;color:#3d2e00;font:600 15px/1.4 system-ui,sans-serif;text-align:center}' +
  '@media (min-width:520px){body{padding:24px 0}.pv{min-height:0;border-radius:16px;overflow:hidden;box-shadow:0 2px 16px rgba(0,0,0,.18)}.pv-notice{margin-bottom:12px;border-radius:12px}}';

/** Without JavaScript the bio shows open (its toggle would do nothing). */
const noScriptCss = '.pv-bio[hidden]{display:block!important}.pv [aria-controls=pv-about]{display:none!important}';

/**
 * The public profile page `/{username}` as a complete HTML document: head with title, description, canonical,
 * Open Graph and Twitter tags, the inline stylesheet, the server-rendered `ProfileView` (no React on the page) and
 * the small vanilla script that toggles the panels and sends the forms.
 */
export function renderProfilePage({ profile, brandName, siteUrl, profileUrl, urls, scriptUrl, notice }: ProfilePageOptions): string {
  const d = profile.document;
  const name = `${profile.firstName} ${profile.lastName}`.trim() || profile.username;
  const summary = [d.title.trim(), d.businessName.trim()].filter(Boolean).join(' – ');
  const description = clip(summary || `Digital business card of ${name}`, 200);
  const title = `${name} | ${brandName}`;
  const canonical = safeHref(profileUrl);
  const image = (d.profileImage && absoluteUrl(d.profileImage, profileUrl)) || (d.businessLogo && absoluteUrl(d.businessLogo, profileUrl));
  const data: ProfilePageData = {
    leadsUrl: safeHref(urls.leads) ?? '',
    clicksUrl: (urls.clicks && safeHref(urls.clicks)) ?? '',
    thanks: LeadThanks,
  };
  const script = safeHref(scriptUrl);

  const markup = renderToStaticMarkup(<ProfileView profile={profile} brandName={brandName} siteUrl={siteUrl} urls={urls} mode="public" />);
  // React puts preload links for the header's images first: they belong in the head.
  const preloads = /^(?:<link rel="preload"[^<>]*\/>)*/.exec(markup)?.[0] ?? '';
  const body = markup.slice(preloads.length);

  const meta = (attribute: 'name' | 'property', key: string, content: string) =>
    `<meta ${attribute}="${key}" content="${escapeHtml(content)}">`;
  const head = [
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(title)}</title>`,
    meta('name', 'description', description),
    canonical ? `<link rel="canonical" href="${escapeHtml(canonical)}">` : '',
    meta('property', 'og:type', 'profile'),
    meta('property', 'og:title', name),
    meta('property', 'og:description', description),
    canonical ? meta('property', 'og:url', canonical) : '',
    image ? meta('property', 'og:image', image) : '',
    meta('property', 'og:site_name', brandName),
    profile.firstName ? meta('property', 'profile:first_name', profile.firstName) : '',
    profile.lastName ? meta('property', 'profile:last_name', profile.lastName) : '',
    meta('name', 'twitter:card', 'summary'),
    meta('name', 'theme-color', colour(d.profileBackgroundColor, '#eeeeee')),
    preloads,
    `<style>${profileCss}${pageCss}</style>`,
    `<noscript><style>${noScriptCss}</style></noscript>`,
    script ? `<script src="${escapeHtml(script)}" defer></script>` : '',
  ].filter(Boolean);

  return (
    `<!doctype html><html lang="en"><head>${head.join('')}</head><body><main>` +
    (notice ? `<p class="pv-notice">${escapeHtml(notice)}</p>` : '') +
    `${body}</main>` +
    `<script type="application/json" id="profile-data">${jsonForHtml(data)}</script></body></html>`
  );
}

import { safeHref } from './safe-url.js';

export type VideoView = { kind: 'embed'; provider: 'youtube' | 'vimeo'; src: string } | { kind: 'link'; href: string };

const YOUTUBE_ID = /^[A-Za-z0-9_-]{11}$/;

function youtubeId(url: URL, host: string): string | undefined {
  let id: string | null | undefined;
  if (host === 'youtu.be') id = url.pathname.split('/')[1];
  else if (host === 'youtube.com' || host === 'youtube-nocookie.com') {
    id = url.pathname === '/watch' ? url.searchParams.get('v') : /^\/(?:embed|shorts|live|v)\/([^/]+)/.exec(url.pathname)?.[1];
  }
  return id && YOUTUBE_ID.test(id) ? id : undefined;
}

/**
 * How the profile shows its video link: YouTube (youtube.com/watch?v=, youtu.be/, /shorts/, /embed/) and Vimeo
 * links become a privacy-friendly embed (youtube-nocookie.com, Vimeo with `dnt=1`); any other http(s) link
 * stays a link; anything else shows nothing.
 */
export function videoView(link: string): VideoView | undefined {
  const href = safeHref(link);
  if (href === undefined) return undefined;
  if (href.startsWith('/')) return { kind: 'link', href };
  const url = new URL(href);
  const host = url.hostname.toLowerCase().replace(/^(?:www\.|m\.|music\.)/, '');
  const youtube = youtubeId(url, host);
  if (youtube) return { kind: 'embed', provider: 'youtube', src: `https://www.youtube-nocookie.com/embed/${youtube}` };
  if (host === 'vimeo.com' || host === 'player.vimeo.com') {
    const match = /^\/(?:video\/)?(\d{4,12})(?:\/([0-9a-f]{6,20}))?\/?$/.exec(url.pathname);
    if (match) {
      const hash = match[2] ?? url.searchParams.get('h');
      const h = hash && /^[0-9a-f]{6,20}$/.test(hash) ? `&h=${hash}` : '';
      return { kind: 'embed', provider: 'vimeo', src: `https://player.vimeo.com/video/${match[1]}?dnt=1${h}` };
    }
  }
  return { kind: 'link', href };
}

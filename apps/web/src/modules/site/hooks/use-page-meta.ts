import { useEffect } from 'react';
import { useSiteConfig } from './use-site-config';

/** The title and description of the page last rendered on the server (read by entry-server.tsx). */
export const serverPageMeta: { current: { title: string; description: string } | null } = { current: null };

/**
 * The page's title and description for the browser tab, bookmarks and search results: sets `document.title` to
 * "{title} | {brandName}" and the content of `<meta name="description">` (adding the element when it is missing).
 */
export function usePageMeta(title: string, description: string): void {
  const { brandName } = useSiteConfig();
  // Rendering on the server (entry-server.tsx): the gateway puts them in the page's <head>.
  if (typeof document === 'undefined') serverPageMeta.current = { title: `${title} | ${brandName}`, description };
  useEffect(() => {
    document.title = `${title} | ${brandName}`;
    let meta = document.head.querySelector<HTMLMetaElement>('meta[name="description"]');
    if (!meta) {
      meta = document.createElement('meta');
      meta.name = 'description';
      document.head.append(meta);
    }
    meta.content = description;
  }, [title, description, brandName]);
}

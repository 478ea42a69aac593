import { useEffect } from 'react';
import { useSiteConfig } from './use-site-config';

/**
 * The page's title and description for the browser tab, bookmarks and search results: sets `document.title` to
 * "{title} | {brandName}" and the content of `<meta name="description">` (adding the element when it is missing).
 */
export function usePageMeta(title: string, description: string): void {
  const { brandName } = useSiteConfig();
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

import { useEffect } from 'react';
import { useSiteConfig } from './use-site-config';

/** Sets `document.title` to "{page} | {brandName}". */
export function useDocumentTitle(page: string): void {
  const { brandName } = useSiteConfig();
  useEffect(() => {
    document.title = `${page} | ${brandName}`;
  }, [page, brandName]);
}

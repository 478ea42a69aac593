import type { SiteConfig } from '@digicard/contracts';
import { createContext, use } from 'react';
import { DEFAULT_SITE_CONFIG } from '../utils/site-config';

export const SiteConfigContext = createContext<SiteConfig>(DEFAULT_SITE_CONFIG);

/** The deployment's brand name, sales email and WhatsApp number. */
export function useSiteConfig(): SiteConfig {
  return use(SiteConfigContext);
}

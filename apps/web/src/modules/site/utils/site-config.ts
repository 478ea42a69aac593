import { SITE_CONFIG_ELEMENT_ID, SiteConfigSchema, type SiteConfig } from '@digicard/contracts';

/** Used when the page carries no configuration (the Vite dev server) or an invalid one. */
export const DEFAULT_SITE_CONFIG: SiteConfig = {
  brandName: 'DigiCard',
  salesEmail: 'sales@digicard.co.za',
  whatsappNumber: '27000000000',
};

/**
 * Reads the `<script type="application/json" id="site-config">` element the gateway inserts into index.html.
 * Called once, at start.
 */
export function readSiteConfig(doc: Document = document): SiteConfig {
  const text = doc.getElementById(SITE_CONFIG_ELEMENT_ID)?.textContent;
  if (!text) return DEFAULT_SITE_CONFIG;
  try {
    const parsed = SiteConfigSchema.safeParse(JSON.parse(text));
    if (parsed.success) return parsed.data;
    console.error('Invalid site configuration; using the defaults.', parsed.error.issues);
  } catch (error) {
    console.error('Unreadable site configuration; using the defaults.', error);
  }
  return DEFAULT_SITE_CONFIG;
}

export function whatsappLink(config: SiteConfig): string {
  return `https://wa.me/${config.whatsappNumber}`;
}

export function mailtoLink(config: SiteConfig): string {
  return `mailto:${config.salesEmail}`;
}

import { z } from 'zod';

/** What the web app needs to know about the deployment; the gateway embeds it in index.html. */
export const SiteConfigSchema = z.object({
  brandName: z.string().min(1),
  salesEmail: z.email(),
  whatsappNumber: z.string().regex(/^\d{11,15}$/, 'international format without +, e.g. 27821234567'),
});
export type SiteConfig = z.infer<typeof SiteConfigSchema>;

export const SITE_CONFIG_ELEMENT_ID = 'site-config';

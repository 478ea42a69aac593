import { z } from 'zod';

/** What the web app needs to know about the deployment; the gateway embeds it in index.html. */
/** A WhatsApp group or community invite: `https://chat.whatsapp.com/` and the invite code. */
export const WHATSAPP_INVITE = /^https:\/\/chat\.whatsapp\.com\/[A-Za-z0-9]{10,}$/;

export const SiteConfigSchema = z.object({
  brandName: z.string().min(1),
  salesEmail: z.email(),
  whatsappNumber: z.string().regex(/^\d{11,15}$/, 'international format without +, e.g. 27821234567'),
  /** The TEDxGeorge WhatsApp community's invite link, from its organisers; the page has no chat button without it. */
  tedxGeorgeCommunityUrl: z
    .string()
    .regex(WHATSAPP_INVITE, 'a WhatsApp invite link, e.g. https://chat.whatsapp.com/AbCdEf123456')
    .optional(),
});
export type SiteConfig = z.infer<typeof SiteConfigSchema>;

export const SITE_CONFIG_ELEMENT_ID = 'site-config';

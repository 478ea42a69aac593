import { z } from 'zod';
import type { GatewayRoute } from './api-routes.js';

/**
 * The web app's pages, in one table shared by the React router and the gateway (which answers 200 for these
 * and 404 for anything else, with the same app rendering the not-found page).
 */
export const WebRoutes = {
  home: '/',
  pricing: '/pricing',
  accessories: '/accessories',
  contact: '/contact',
  register: '/register',
  /** The special offer: sign-up (or a signed-in owner) and PayFast for the specials in the basket. */
  registration: '/registration',
  login: '/login',
  verifyEmail: '/verify-email',
  resetPassword: '/reset-password',
  /** The link in the email sent to a new address: confirms the change of the account's email. */
  confirmEmail: '/confirm-email',
  dashboard: '/dashboard',
  terms: '/terms-and-conditions',
  cart: '/cart',
  thankYou: '/thank-you',
  cancel: '/cancel',
  tedxGeorge: '/tedx_george',
  /** The staff console (role staff). */
  staff: '/staff',
  /** The print team's console (role print). */
  print: '/print',
} as const;
export type WebRoute = (typeof WebRoutes)[keyof typeof WebRoutes];

/** The dashboard opens the section named by this query parameter (`/dashboard?section=billing`). */
export const DashboardSectionParam = 'section';

/**
 * Where PayFast sends the owner back after paying for a membership: the dashboard's Billing section, which shows the
 * new tier (pending until PayFast's notification arrives). `/thank-you` is for card orders only.
 */
export const MembershipReturnPath = `${WebRoutes.dashboard}?${DashboardSectionParam}=billing`;

/** The pages this build of the web app implements; the rest of the table arrives with their issues. */
export const ImplementedWebRoutes: readonly WebRoute[] = [
  WebRoutes.home,
  WebRoutes.contact,
  WebRoutes.register,
  WebRoutes.registration,
  WebRoutes.login,
  WebRoutes.verifyEmail,
  WebRoutes.resetPassword,
  WebRoutes.confirmEmail,
  WebRoutes.dashboard,
  WebRoutes.pricing,
  WebRoutes.accessories,
  WebRoutes.terms,
  WebRoutes.cart,
  WebRoutes.thankYou,
  WebRoutes.cancel,
  WebRoutes.tedxGeorge,
  WebRoutes.staff,
  WebRoutes.print,
];

/** Pages of one catalogue item: the gateway answers 404 when the id is not in the catalogue ("Card not found"). */
export const CataloguePages = [
  { prefix: '/accessories/', kind: 'accessory' },
  { prefix: '/specials/', kind: 'special' },
] as const;

/** A route the gateway serves outside `/api`: a page or an asset, not part of the API's OpenAPI document. */
export interface PageRoute extends GatewayRoute {
  readonly method: 'get';
  readonly description: string;
}

/**
 * The gateway's pages and assets, in the order it matches them (after the API): the web app's fallback comes last,
 * since it answers every path nothing else did.
 */
export const PageRoutes = {
  media: {
    method: 'get',
    path: '/media/:file',
    access: 'public',
    description: 'An uploaded image, `<random id>.webp`: ids never change meaning, so it is cached for a year',
    params: { schema: z.object({ file: z.string().regex(/^[A-Za-z0-9_-]{10,64}\.(?:webp|png|jpeg)$/) }), notFound: 'No such image.' },
  },
  walletLogo: {
    method: 'get',
    path: '/media/wallet-logo/:file',
    access: 'public',
    description:
      'An uploaded image as Google Wallet wants a pass’s logo, `<random id>.png`: a 660 x 660 PNG, the image inside its middle 70 % on white (Google masks it into a circle); shown and cached as `/media/{file}` is',
    params: { schema: z.object({ file: z.string().regex(/^[A-Za-z0-9_-]{10,64}\.png$/) }), notFound: 'No such image.' },
  },
  profilePageScript: {
    method: 'get',
    path: '/profile-assets/profile-page.js',
    access: 'public',
    description: "The public page's small script; its URL carries a hash of its content, so it is cached for a year",
  },
  cardRedirect: {
    method: 'get',
    path: '/c/:serial',
    access: 'public',
    description:
      'Where a card’s NFC chip and QR code point: 302 to its owner’s profile with `?src=nfc&card={serial}` (the view counted as an NFC one), or a page saying the card is disabled (410)',
    params: { schema: z.object({ serial: z.string().regex(/^[23456789ABCDEFGHJKMNPQRSTVWXYZ]{8}$/) }), notFound: 'Card not found.' },
  },
  publicProfile: {
    method: 'get',
    path: '/:username',
    access: 'public',
    description:
      'The public profile page `/{username}`, rendered by the gateway; an account id, a vanity path or capitals redirect to it. Any other single segment falls through to the web app',
  },
  webApp: {
    method: 'get',
    path: '/{*path}',
    access: 'public',
    description: 'The web app: 200 for its pages and the catalogue items that exist, 404 (the same app, its not-found page) for the rest',
  },
} as const satisfies Record<string, PageRoute>;

export const accessoryPath = (id: string): string => `/accessories/${id}`;
/** An uploaded image (its media id) as a Google Wallet pass's logo (PageRoutes.walletLogo). */
export const walletLogoPath = (mediaId: string): string => `/media/wallet-logo/${mediaId}.png`;
export const specialPath = (id: string): string => `/specials/${id}`;

/**
 * Names a username may never take, because `/{username}` would hide a page of the site or a path the gateway
 * serves. Every first segment of the route table is here too.
 */
export const ReservedUsernames: ReadonlySet<string> = new Set([
  ...Object.values(WebRoutes)
    .map((path) => path.split('/')[1] ?? '')
    .filter(Boolean),
  'about',
  'accessories',
  'account',
  'accounts',
  'admin',
  'api',
  'app',
  'assets',
  'auth',
  'billing',
  'blog',
  'cancel',
  'card',
  'cards',
  'cart',
  'checkout',
  'contact',
  'dashboard',
  'digicard',
  'docs',
  'email',
  'favicon',
  'forgot-password',
  'health',
  'help',
  'home',
  'index',
  'itn',
  'leads',
  'legal',
  'login',
  'logout',
  'mail',
  'me',
  'new',
  'notify',
  'orders',
  'packages',
  'payfast',
  'payment',
  'payments',
  'pricing',
  'print',
  'privacy',
  'profile',
  'profiles',
  'qr',
  'register',
  'registration',
  'reset-password',
  'robots',
  'root',
  'settings',
  'shop',
  'signin',
  'signout',
  'signup',
  'sitemap',
  'specials',
  'static',
  'support',
  'team',
  'teams',
  'tedx-george',
  'terms',
  'terms-and-conditions',
  'thank-you',
  'user',
  'users',
  'vcard',
  'verify',
  'verify-email',
  'webhook',
  'webhooks',
  'www',
]);

export const isReservedUsername = (name: string): boolean => ReservedUsernames.has(name.toLowerCase());

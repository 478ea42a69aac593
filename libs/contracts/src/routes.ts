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
  login: '/login',
  dashboard: '/dashboard',
  terms: '/terms-and-conditions',
} as const;
export type WebRoute = (typeof WebRoutes)[keyof typeof WebRoutes];

/** The pages this build of the web app implements; the rest of the table arrives with their issues. */
export const ImplementedWebRoutes: readonly WebRoute[] = [WebRoutes.home, WebRoutes.contact];

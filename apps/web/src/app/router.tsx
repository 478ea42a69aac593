import { accessoryPath, specialPath, WebRoutes, type WebRoute } from '@digicard/contracts';
import { lazy, type ComponentType } from 'react';
import { Route, Routes } from 'react-router';
import { AccessoriesPage } from '../pages/accessories-page';
import { AccessoryPage } from '../pages/accessory-page';
import { CancelPage } from '../pages/cancel-page';
import { CartPage } from '../pages/cart-page';
import { ConfirmEmailPage } from '../pages/confirm-email-page';
import { ContactPage } from '../pages/contact-page';
import { DashboardPage } from '../pages/dashboard-page';
import { HomePage } from '../pages/home-page';
import { LoginPage } from '../pages/login-page';
import { NotFoundPage } from '../pages/not-found-page';
import { PricingPage } from '../pages/pricing-page';
import { RegisterPage } from '../pages/register-page';
import { RegistrationPage } from '../pages/registration-page';
import { SpecialPage } from '../pages/special-page';
import { ThankYouPage } from '../pages/thank-you-page';
import { Layout } from './layout';

// Long pages few visitors open load on demand, in chunks of their own (the layout shows "Loading..." meanwhile).
const TermsPage = lazy(() => import('../pages/terms-page').then((module) => ({ default: module.TermsPage })));
const PrintPage = lazy(() => import('../pages/print-page').then((module) => ({ default: module.PrintPage })));
const StaffPage = lazy(() => import('../pages/staff-page').then((module) => ({ default: module.StaffPage })));
const TedxGeorgePage = lazy(() => import('../pages/tedx-george-page').then((module) => ({ default: module.TedxGeorgePage })));
// The emailed links' pages read server state through TanStack Query, which loads with them only.
const VerifyEmailPage = lazy(() => import('../pages/verify-email-page').then((module) => ({ default: module.VerifyEmailPage })));
const ResetPasswordPage = lazy(() => import('../pages/reset-password-page').then((module) => ({ default: module.ResetPasswordPage })));

/**
 * The pages this build implements, keyed by the shared WebRoutes table (the gateway answers 200 for the routes
 * in ImplementedWebRoutes and 404 for the rest). Every other path renders the not-found page.
 * Declarative routes (`<BrowserRouter>` + `<Routes>`) keep react-router's share of the bundle small.
 */
const pages: Partial<Record<WebRoute, ComponentType>> = {
  [WebRoutes.home]: HomePage,
  [WebRoutes.pricing]: PricingPage,
  [WebRoutes.accessories]: AccessoriesPage,
  [WebRoutes.contact]: ContactPage,
  [WebRoutes.register]: RegisterPage,
  [WebRoutes.registration]: RegistrationPage,
  [WebRoutes.login]: LoginPage,
  [WebRoutes.verifyEmail]: VerifyEmailPage,
  [WebRoutes.resetPassword]: ResetPasswordPage,
  [WebRoutes.confirmEmail]: ConfirmEmailPage,
  [WebRoutes.dashboard]: DashboardPage,
  [WebRoutes.terms]: TermsPage,
  [WebRoutes.cart]: CartPage,
  [WebRoutes.thankYou]: ThankYouPage,
  [WebRoutes.cancel]: CancelPage,
  [WebRoutes.tedxGeorge]: TedxGeorgePage,
  [WebRoutes.staff]: StaffPage,
  [WebRoutes.print]: PrintPage,
};

/**
 * One catalogue item per page (the gateway answers 404 for an id the catalogue does not have, and the page then
 * says "Card not found").
 */
const itemPages: ReadonlyArray<readonly [string, ComponentType]> = [
  [accessoryPath(':id'), AccessoryPage],
  [specialPath(':id'), SpecialPage],
];

export function AppRoutes() {
  return (
    <Routes>
      <Route element={<Layout />}>
        {Object.entries(pages).map(([path, Page]) => (
          <Route key={path} path={path} element={<Page />} />
        ))}
        {itemPages.map(([path, Page]) => (
          <Route key={path} path={path} element={<Page />} />
        ))}
        <Route path="*" element={<NotFoundPage />} />
      </Route>
    </Routes>
  );
}

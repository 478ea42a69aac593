import { WebRoutes, type WebRoute } from '@digicard/contracts';
import type { ComponentType } from 'react';
import { Route, Routes } from 'react-router';
import { ContactPage } from '../pages/contact-page';
import { DashboardPage } from '../pages/dashboard-page';
import { HomePage } from '../pages/home-page';
import { LoginPage } from '../pages/login-page';
import { NotFoundPage } from '../pages/not-found-page';
import { RegisterPage } from '../pages/register-page';
import { ResetPasswordPage } from '../pages/reset-password-page';
import { VerifyEmailPage } from '../pages/verify-email-page';
import { Layout } from './layout';

/**
 * The pages this build implements, keyed by the shared WebRoutes table (the gateway answers 200 for the routes
 * in ImplementedWebRoutes and 404 for the rest). Every other path renders the not-found page.
 * Declarative routes (`<BrowserRouter>` + `<Routes>`) keep react-router's share of the bundle small.
 */
const pages: Partial<Record<WebRoute, ComponentType>> = {
  [WebRoutes.home]: HomePage,
  [WebRoutes.contact]: ContactPage,
  [WebRoutes.register]: RegisterPage,
  [WebRoutes.login]: LoginPage,
  [WebRoutes.verifyEmail]: VerifyEmailPage,
  [WebRoutes.resetPassword]: ResetPasswordPage,
  [WebRoutes.dashboard]: DashboardPage,
};

export function AppRoutes() {
  return (
    <Routes>
      <Route element={<Layout />}>
        {Object.entries(pages).map(([path, Page]) => (
          <Route key={path} path={path} element={<Page />} />
        ))}
        <Route path="*" element={<NotFoundPage />} />
      </Route>
    </Routes>
  );
}

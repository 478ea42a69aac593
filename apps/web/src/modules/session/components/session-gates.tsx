import { WebRoutes } from '@digicard/contracts';
import type { ReactNode } from 'react';
import { Navigate } from 'react-router';
import { useSession } from '../hooks/use-session';
import { LoadingNotice } from './loading-notice';

/**
 * For pages only a visitor needs (register, log in): "Loading..." until the session is known, then the page, or
 * the dashboard for someone already signed in. A page that signs the user in navigates away itself, in the same
 * render (see SessionProvider), so this never overrides where it goes.
 */
export function GuestOnly({ children }: { children: ReactNode }) {
  const { status } = useSession();
  if (status === 'loading') return <LoadingNotice />;
  if (status === 'signed-in') return <Navigate to={WebRoutes.dashboard} replace />;
  return children;
}

/** For pages that need an account (the dashboard): "Loading...", then the page, or /login for a visitor. */
export function RequireSignedIn({ children }: { children: ReactNode }) {
  const { status } = useSession();
  if (status === 'loading') return <LoadingNotice />;
  if (status === 'signed-out') return <Navigate to={WebRoutes.login} replace />;
  return children;
}

import { useEffect, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';

/**
 * The `?token=` of an emailed link (email verification, password reset), read once when the page opens, then
 * taken out of the address bar (history, bookmarks and screen shares do not keep it). The page keeps it in state.
 */
export function useLinkToken(): string | null {
  const location = useLocation();
  const navigate = useNavigate();
  const [token] = useState(() => new URLSearchParams(location.search).get('token'));

  useEffect(() => {
    const params = new URLSearchParams(location.search);
    if (!params.has('token')) return;
    params.delete('token');
    const search = params.toString();
    void navigate(
      { pathname: location.pathname, search: search ? `?${search}` : '', hash: location.hash },
      { replace: true, state: location.state as unknown },
    );
  }, [location, navigate]);

  return token;
}

import { Button, Notice } from '@digicard/ui';
import { useQueryClient } from '@tanstack/react-query';
import { useRef } from 'react';
import { retryCatalogue, type CatalogueState } from '../hooks/use-catalogue';

export const CATALOGUE_FAILED_MESSAGE = 'We could not load the shop just now. Please try again in a minute.';

/**
 * In place of catalogue content that is not there yet: "Loading...", or the failure with a "Try again" button.
 * Nothing once the catalogue is loaded. The wrapper stays while the state changes, so that after "Try again" the
 * keyboard focus has a place to wait (the button itself goes away while the catalogue loads).
 */
export function CatalogueStatus({ state }: { state: CatalogueState }) {
  const ref = useRef<HTMLDivElement>(null);
  const client = useQueryClient();
  if (state.status === 'loaded') return null;

  function tryAgain() {
    ref.current?.focus();
    void retryCatalogue(client).then(() => {
      // Loaded: the wrapper that held the focus is gone; carry on from the top of the page content.
      setTimeout(() => {
        if (document.activeElement === document.body) document.getElementById('main-content')?.focus({ preventScroll: true });
      }, 0);
    });
  }

  return (
    <div ref={ref} className="catalogue-status" tabIndex={-1}>
      {state.status === 'loading' ? (
        <p className="loading-notice" role="status">
          Loading...
        </p>
      ) : (
        <>
          <Notice tone="warning" role="alert">
            {CATALOGUE_FAILED_MESSAGE}
          </Notice>
          <Button variant="secondary" onClick={tryAgain}>
            Try again
          </Button>
        </>
      )}
    </div>
  );
}

import { useState } from 'react';
import { fetchGoogleWalletLink } from '../api/profile';

/** The button's name in Google's own artwork (Google Wallet brand guidelines, "Add to Google Wallet button"). */
export const ADD_TO_GOOGLE_WALLET = 'Add to Google Wallet';
export const GOOGLE_WALLET_FAILED = 'We could not make your Google Wallet link. Please try again.';

/**
 * The "Add to Google Wallet" button: asks for the owner's signed save link when pressed (each link is signed for
 * the card as it is then), then opens it: Google Wallet's save page. Named as Google's button is, and drawn in its
 * shape (black, rounded, the Wallet mark); Google's guidelines ask for their own artwork, unaltered (the SVG, in the
 * South African English version, from the brand guidelines' download), which is not in this repository: it is to
 * replace this drawing before launch (docs/subsystems.md, "Google Wallet passes").
 */
export function AddToGoogleWallet() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function open() {
    setBusy(true);
    setError(null);
    const result = await fetchGoogleWalletLink();
    setBusy(false);
    if (result.ok) window.location.assign(result.data.saveUrl);
    else setError(result.error.statusCode === 0 ? result.error.message : GOOGLE_WALLET_FAILED);
  }

  return (
    <>
      <button type="button" className="pe-wallet-badge" disabled={busy} aria-label={ADD_TO_GOOGLE_WALLET} onClick={() => void open()}>
        <svg className="pe-wallet-badge__icon" viewBox="0 0 24 24" width="24" height="24" aria-hidden="true" focusable="false">
          <rect x="2" y="5" width="20" height="14" rx="3" fill="#4285f4" />
          <rect x="2" y="9" width="20" height="3" fill="#ea4335" />
          <rect x="2" y="12" width="20" height="3" fill="#fbbc04" />
          <rect x="2" y="15" width="20" height="4" rx="2" fill="#34a853" />
        </svg>
        <span className="pe-wallet-badge__text">
          <span className="pe-wallet-badge__small">Add to</span>
          <span className="pe-wallet-badge__large">Google Wallet</span>
        </span>
      </button>
      {error ? (
        <span role="alert" className="pe-copy__status">
          {error}
        </span>
      ) : null}
    </>
  );
}

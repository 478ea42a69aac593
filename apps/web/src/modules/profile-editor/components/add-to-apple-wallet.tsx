import { ProfileLinks } from '../api/profile';

export const ADD_TO_APPLE_WALLET = 'Add to Apple Wallet';

/**
 * The "Add to Apple Wallet" badge: a link to the owner's signed pass (Safari on an iPhone or Mac opens it in Wallet's
 * Add sheet; elsewhere it downloads). Drawn here in the badge's shape and colours; Apple's own badge artwork (from
 * Apple's Wallet marketing guidelines) is to replace it before launch (docs/subsystems.md, "Apple Wallet").
 */
export function AddToAppleWallet() {
  return (
    <a className="pe-wallet-badge" href={ProfileLinks.applePass}>
      <svg className="pe-wallet-badge__icon" viewBox="0 0 24 24" width="24" height="24" aria-hidden="true" focusable="false">
        <rect x="2" y="4" width="20" height="16" rx="3" fill="#ffffff" />
        <rect x="2" y="4" width="20" height="4" rx="2" fill="#34aadc" />
        <rect x="2" y="8" width="20" height="3" fill="#ff9500" />
        <rect x="2" y="11" width="20" height="3" fill="#4cd964" />
        <path d="M2 14h6a4 4 0 0 0 8 0h6v3a3 3 0 0 1-3 3H5a3 3 0 0 1-3-3z" fill="#d1d1d6" />
      </svg>
      <span className="pe-wallet-badge__text">
        <span className="pe-wallet-badge__small">Add to</span>
        <span className="pe-wallet-badge__large">Apple Wallet</span>
      </span>
    </a>
  );
}

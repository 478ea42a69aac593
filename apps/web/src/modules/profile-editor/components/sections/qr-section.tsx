import type { Membership } from '@digicard/contracts';
import { Button } from '@digicard/ui';
import { useState } from 'react';
import { publicProfileUrl } from '../../../accounts/utils/profile-url';
import { ShareProfile } from '../../../analytics/components/share-profile';
import { ProfileLinks } from '../../api/profile';
import { useWalletStatus } from '../../hooks/use-wallet-status';
import { AddToAppleWallet } from '../add-to-apple-wallet';
import { AddToGoogleWallet } from '../add-to-google-wallet';

export const NO_QR_CODE = 'No QR Code available';
const COPIED = 'Link copied.';
const COPY_BY_HAND = 'Copying is not available here: select the address and copy it.';

interface QrSectionProps {
  username: string;
  isVerified: boolean;
  isPublic: boolean;
  /** The owner's name, for the share message. */
  name: string;
  membership: Membership;
}

/** QR Code: the code (300 x 300) with its PNG and SVG downloads, and the public address with Copy link. */
export function QrSection({ username, isVerified, isPublic, name, membership }: QrSectionProps) {
  const [copyStatus, setCopyStatus] = useState('');
  const wallet = useWalletStatus();
  if (!username) return <p className="pe-note">{NO_QR_CODE}</p>;
  const appleWallet = wallet.state.status === 'loaded' && wallet.state.value.apple.available;
  const googleWallet = wallet.state.status === 'loaded' && wallet.state.value.google.available;
  const anyWallet = appleWallet || googleWallet;
  const walletNames = [appleWallet ? 'Apple Wallet' : null, googleWallet ? 'Google Wallet' : null].filter(Boolean).join(' or ');
  const address = publicProfileUrl(username);

  async function copy() {
    try {
      await navigator.clipboard.writeText(address);
      setCopyStatus(COPIED);
    } catch {
      setCopyStatus(COPY_BY_HAND);
      const input = document.getElementById('pe-public-address');
      if (input instanceof HTMLInputElement) input.select();
    }
  }

  return (
    <>
      {isVerified && isPublic ? null : (
        <p className="pe-note pe-note--warning">
          {isVerified
            ? 'Your profile is private: people who scan your code see "Page not found" until you show it publicly (Settings).'
            : 'People who scan your code see your profile once your email address is verified.'}
        </p>
      )}
      <div className="pe-qr">
        <img className="pe-qr__image" src={ProfileLinks.qrPng(username)} width={300} height={300} alt={`QR code for ${address}`} />
        <p className="pe-actions">
          <a className="button-link" href={ProfileLinks.qrPng(username)} download="QR_Code.png">
            Download QR Code
          </a>
          <a className="button-link button-link--secondary" href={ProfileLinks.qrSvg(username)} download="QR_Code.svg">
            Download for print (SVG)
          </a>
        </p>
      </div>
      {anyWallet ? (
        <>
          <h3 className="pe-subtitle">Your card in your phone’s wallet</h3>
          <p>
            Add your card to {walletNames}: your QR code is then a double-press away, with no app and no data needed. It updates itself when
            you change your profile.
          </p>
          <p className="pe-actions">
            {appleWallet ? <AddToAppleWallet /> : null}
            {googleWallet ? <AddToGoogleWallet /> : null}
          </p>
        </>
      ) : null}

      <h3 className="pe-subtitle">Your public address</h3>
      <div className="pe-copy">
        <label className="ui-visually-hidden" htmlFor="pe-public-address">
          Your public address
        </label>
        <input id="pe-public-address" className="ui-field__control pe-copy__input" readOnly value={address} />
        <Button variant="secondary" onClick={() => void copy()}>
          Copy link
        </Button>
      </div>
      <p className="pe-copy__status" role="status">
        {copyStatus}
      </p>
      <h3 className="pe-subtitle">Share your profile</h3>
      <ShareProfile name={name} address={address} membership={membership} />
      <p>
        <a href={`/${username}`} target="_blank" rel="noopener">
          Open my profile<span className="ui-visually-hidden"> (opens in a new tab)</span>
        </a>
      </p>
      <p className="pe-note">
        NFC cards are written with <code className="pe-code">{`${address}?src=nfc`}</code> and the QR code carries{' '}
        <code className="pe-code">?src=qr</code>
        {anyWallet ? (
          <>
            {' '}
            (the wallet pass’s code <code className="pe-code">?src=wallet</code>)
          </>
        ) : null}
        , so a view from a card or a code can be told apart from a shared link.
      </p>
    </>
  );
}

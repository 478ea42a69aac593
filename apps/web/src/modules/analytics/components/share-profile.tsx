import { type Membership } from '@digicard/contracts';
import { can } from '@digicard/domain';
import { shareLinks, ShareTexts } from '@digicard/profile-view';
import { Button } from '@digicard/ui';

export const SHARE_UPGRADE = 'Upgrade to DigiSilver to share your profile on WhatsApp and by email from here and from your page.';

/**
 * Share your profile (DigiSilver and up): WhatsApp click-to-chat and email with the address tagged `?src=wa` and
 * `?src=email` (so Analytics tells the shares apart), and the phone's share sheet where the browser has one.
 */
export function ShareProfile({ name, address, membership }: { name: string; address: string; membership: Membership }) {
  if (!can(membership, 'shareContact')) return <p className="pe-note">{SHARE_UPGRADE}</p>;
  const links = shareLinks(name, address);
  const canShare = typeof navigator !== 'undefined' && typeof navigator.share === 'function';
  return (
    <div className="pe-share">
      <a className="button-link" href={links.whatsapp} target="_blank" rel="noopener noreferrer">
        {ShareTexts.whatsapp}
        <span className="ui-visually-hidden"> (opens in a new tab)</span>
      </a>
      <a className="button-link button-link--secondary" href={links.email}>
        {ShareTexts.email}
      </a>
      {canShare ? (
        <Button variant="secondary" onClick={() => void navigator.share({ title: links.title, url: links.url }).catch(() => undefined)}>
          {ShareTexts.native}
        </Button>
      ) : null}
    </div>
  );
}

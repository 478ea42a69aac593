import { Memberships, PaidTiers, WebRoutes, type Membership } from '@digicard/contracts';
import { FormAlert } from '@digicard/ui';
import { useState } from 'react';
import { Link } from 'react-router';
import { AccountDetails } from '../../../accounts/components/account-details';
import { goToPayFast, startMembership } from '../../../billing/api/billing';
import { usePlans, type PlansState } from '../../../packages/hooks/use-plans';
import { tierPrice } from '../../../packages/tiers';
import { ProfileLinks } from '../../api/profile';
import type { ProfileEditor } from '../../hooks/use-profile-editor';
import { DeleteAccount } from '../delete-account';
import { SelectField } from '../fields';

export const MEMBERSHIP_CHANGED = (membership: Membership) => `Your membership is now ${membership}.`;

/** Each tier with its price as payments serves it (the tier alone while the plans are not known). */
const membershipOptions = (plans: PlansState) =>
  Memberships.map((membership) => {
    const price = tierPrice(membership, plans);
    return { value: membership, label: price === null ? membership : `${membership} (${price})` };
  });

interface SettingsSectionProps {
  membership: Membership;
  /** Partners switch tiers freely; everyone else pays DigiSilver and DigiGold at PayFast. */
  isPartner: boolean;
  isPublic: boolean;
  isVerified: boolean;
  changeSettings: ProfileEditor['changeSettings'];
  renamed: ProfileEditor['renamed'];
}

type Outcome = { ok: true; message: string } | { ok: false; message: string };

/**
 * Settings: the account (name and email), the membership (partners switch at once; for everyone else choosing
 * DigiSilver or DigiGold starts the same PayFast checkout as Billing's buttons), "Show my profile publicly" (written
 * at once), "Download my data", and how to delete the account.
 */
export function SettingsSection({ membership, isPartner, isPublic, isVerified, changeSettings, renamed }: SettingsSectionProps) {
  // What the owner just chose, shown while the server is asked (it goes back when the server says no).
  const [pendingMembership, setPendingMembership] = useState<Membership | null>(null);
  const [pendingPublic, setPendingPublic] = useState<boolean | null>(null);
  const [membershipOutcome, setMembershipOutcome] = useState<Outcome | null>(null);
  const [publicOutcome, setPublicOutcome] = useState<Outcome | null>(null);
  const plans = usePlans();

  async function chooseMembership(value: string) {
    const next = Memberships.find((m) => m === value);
    if (!next || next === membership) return;
    setPendingMembership(next);
    setMembershipOutcome(null);
    const paid = PaidTiers.find((tier) => tier === next);
    if (paid && !isPartner) {
      const started = await startMembership(paid);
      if (started.ok) return goToPayFast(started.data.redirectUrl);
      setPendingMembership(null);
      setMembershipOutcome({ ok: false, message: started.error.message });
      return;
    }
    const result = await changeSettings({ membership: next });
    setPendingMembership(null);
    setMembershipOutcome(result.ok ? { ok: true, message: MEMBERSHIP_CHANGED(next) } : result);
  }

  async function choosePublic(next: boolean) {
    setPendingPublic(next);
    setPublicOutcome(null);
    const result = await changeSettings({ isPublic: next });
    setPendingPublic(null);
    setPublicOutcome(result.ok ? { ok: true, message: next ? 'Your profile is shown publicly.' : 'Your profile is now private.' } : result);
  }

  return (
    <>
      <h3 className="pe-subtitle">Account</h3>
      <AccountDetails onRenamed={renamed} />

      <SelectField
        label="Membership"
        path="membership"
        value={pendingMembership ?? membership}
        options={membershipOptions(plans)}
        hint={isPartner ? undefined : 'DigiSilver and DigiGold are paid monthly: choosing one takes you to PayFast.'}
        disabled={pendingMembership !== null}
        className="pe-membership"
        onChange={(value) => void chooseMembership(value)}
      />
      <p className="pe-status" role="status">
        {pendingMembership !== null
          ? isPartner || !PaidTiers.some((t) => t === pendingMembership)
            ? 'Saving...'
            : 'Going to PayFast...'
          : membershipOutcome?.ok
            ? membershipOutcome.message
            : ''}
      </p>
      {membershipOutcome && !membershipOutcome.ok ? <FormAlert>{membershipOutcome.message}</FormAlert> : null}
      <p className="pe-note">
        <Link to={WebRoutes.pricing}>Compare the packages</Link>
      </p>

      <div className="pe-check">
        <input
          id="pe-isPublic"
          type="checkbox"
          checked={pendingPublic ?? isPublic}
          disabled={pendingPublic !== null}
          aria-describedby="pe-isPublic-hint"
          onChange={(event) => void choosePublic(event.currentTarget.checked)}
        />
        <label htmlFor="pe-isPublic">Show my profile publicly</label>
      </div>
      <p id="pe-isPublic-hint" className="ui-field__hint pe-check__hint">
        {isVerified
          ? 'When this is off, only you can see your profile page. Saved at once.'
          : 'Your profile is shown to others once your email address is verified. Saved at once.'}
      </p>
      <p className="pe-status" role="status">
        {pendingPublic !== null ? 'Saving...' : publicOutcome?.ok ? publicOutcome.message : ''}
      </p>
      {publicOutcome && !publicOutcome.ok ? <FormAlert>{publicOutcome.message}</FormAlert> : null}

      <h3 className="pe-subtitle">Your data</h3>
      <p>Everything we hold about you and your profile, as a JSON file.</p>
      <p>
        <a className="button-link button-link--secondary" href={ProfileLinks.dataExport} download>
          Download my data
        </a>
      </p>

      <h3 className="pe-subtitle">Delete my account</h3>
      <DeleteAccount />
    </>
  );
}

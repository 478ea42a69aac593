import { WebRoutes, type ProfileDocument, type PublicProfile } from '@digicard/contracts';
import { publicFeatures } from '@digicard/domain';
import { ProfileView, profileCss } from '@digicard/profile-view';
import { useMemo } from 'react';
import { useSiteConfig } from '../../site/hooks/use-site-config';
import { ProfileLinks } from '../api/profile';
import type { ProfileAccount } from '../hooks/use-profile-editor';

interface LivePreviewProps {
  account: ProfileAccount;
  document: ProfileDocument;
}

/** The draft as visitors will see it: the shared ProfileView in preview mode (forms do not send). */
export function LivePreview({ account, document }: LivePreviewProps) {
  const { brandName } = useSiteConfig();
  const profile = useMemo<PublicProfile>(
    () => ({
      username: account.username,
      firstName: account.firstName,
      lastName: account.lastName,
      email: account.email,
      membership: account.membership,
      document,
      // The same features the public page gets from profiles (libs/domain), so the preview shows what visitors will.
      features: publicFeatures(account.membership),
      updatedAt: account.updatedAt,
    }),
    [account, document],
  );
  const urls = useMemo(
    () => ({ vcard: ProfileLinks.vcard(account.username), leads: ProfileLinks.leads(account.username), register: WebRoutes.register }),
    [account.username],
  );
  return (
    <section id="pe-preview" className="pe-preview" aria-labelledby="pe-preview-title">
      {/* React keeps one copy of this sheet in <head>, however often the preview mounts. */}
      <style href="digicard-profile-view" precedence="default">
        {profileCss}
      </style>
      <h2 id="pe-preview-title" className="pe-preview__title">
        Live preview
      </h2>
      <p className="pe-preview__note">How visitors will see your profile, edits included. Forms do not send from here.</p>
      <div className="pe-preview__frame">
        <ProfileView profile={profile} brandName={brandName} siteUrl={`${window.location.origin}/`} urls={urls} mode="preview" />
      </div>
    </section>
  );
}

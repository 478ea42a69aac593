import { Button, FormAlert, Notice, notice } from '@digicard/ui';
import { useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { DashboardSectionParam, type OwnProfile } from '@digicard/contracts';
import { flushSync } from 'react-dom';
import { useBeforeUnload } from '../hooks/use-before-unload';
import {
  PROFILE_NOT_UPDATED,
  PROFILE_UPDATED,
  useOwnProfile,
  useProfileEditor,
  type OwnProfileQuery,
  type ProfileEditor as Editor,
  type SaveOutcome,
} from '../hooks/use-profile-editor';
import { fieldLabel } from '../utils/field-labels';
import {
  BUSINESS_SECTIONS,
  DEFAULT_SECTION,
  sectionLabel,
  sectionNamed,
  sectionOfField,
  sectionsFor,
  type SectionId,
} from '../utils/sections';
import { useSession } from '../../session/hooks/use-session';
import { TeamsSection } from '../../teams/components/teams-section';
import { fieldId, FIX_FIELDS_MESSAGE, orderedErrors } from '../utils/validation';
import { LivePreview } from './live-preview';
import { SECTION_PANEL_ID, SectionTabs, tabId } from './section-tabs';
import { AnalyticsSection } from '../../analytics/components/analytics-section';
import { CrmSection } from '../../crm/components/crm-section';
import { AccessoriesCartSection } from '../../billing/components/accessories-cart-section';
import { BillingSection, TeamBilling } from '../../billing/components/billing-section';
import { OrdersSection } from '../../orders/components/orders-section';
import { BusinessSection } from './sections/business-section';
import { ContactSection } from './sections/contact-section';
import { DesignSection } from './sections/design-section';
import { GallerySection } from './sections/gallery-section';
import { LeadsSection } from './sections/leads-section';
import { ProductsSection } from './sections/products-section';
import { QrSection } from './sections/qr-section';
import type { DocumentSectionProps } from './sections/section-props';
import { SettingsSection } from './sections/settings-section';
import { SocialSection } from './sections/social-section';
import '../profile-editor.css';
import { QueryProvider } from '../../api/query-client';

export const UNSAVED_CHANGES = 'Unsaved changes';
export const ALL_SAVED = 'All changes saved';

/**
 * The dashboard's profile editor (loaded on demand): the section buttons, Save above the form, the chosen section,
 * and the live preview beside the form (below it on phones). "Loading..." until the profile is read.
 */
function ProfileEditor() {
  const own = useOwnProfile();
  const { state } = own;

  if (state.status === 'loading') {
    return (
      <p className="loading-notice" role="status">
        Loading...
      </p>
    );
  }
  if (state.status === 'failed') {
    return (
      <div className="pe-load-failed">
        <FormAlert>{state.message}</FormAlert>
        <Button variant="secondary" onClick={own.retry}>
          Try again
        </Button>
      </div>
    );
  }
  return <LoadedProfileEditor own={own} profile={state.value} />;
}

/** The editor of the profile as read: its form is a react-hook-form form (`useProfileEditor`). */
function LoadedProfileEditor({ own, profile }: { own: OwnProfileQuery; profile: OwnProfile }) {
  const editor = useProfileEditor(own, profile);
  const { user } = useSession();
  const [searchParams] = useSearchParams();
  // `/dashboard?section=billing` (where PayFast sends a membership's buyer back) opens that section.
  const [section, setSection] = useState<SectionId>(
    () => sectionNamed(searchParams.get(DashboardSectionParam), user?.role) ?? DEFAULT_SECTION,
  );
  const [outcome, setOutcome] = useState<SaveOutcome>(null);
  useBeforeUnload(editor.dirty);

  const goToField = (path: string) => {
    flushSync(() => setSection(sectionOfField(path)));
    document.getElementById(fieldId(path))?.focus();
  };

  async function onSave(event?: FormEvent) {
    event?.preventDefault();
    const result = await editor.save();
    if (!result) return;
    setOutcome(result);
    if (result.ok) {
      void notice({ title: PROFILE_UPDATED });
      return;
    }
    await notice({ title: PROFILE_NOT_UPDATED, message: result.message });
    const first = orderedErrors(result.errors)[0];
    if (first) goToField(first.path);
  }

  const errors = orderedErrors(editor.errors);
  const showFailure = outcome !== null && !outcome.ok && (errors.length > 0 || outcome.message !== FIX_FIELDS_MESSAGE);
  const { account } = editor;

  return (
    <div className="pe">
      <div className="pe__tabs">
        <SectionTabs active={section} onSelect={setSection} sections={sectionsFor(user?.role)} />
      </div>

      <form className="pe__form" aria-label="Edit profile" noValidate onSubmit={(event) => void onSave(event)}>
        <div className="pe-savebar">
          <Button type="submit" className="pe-savebar__save" disabled={editor.saving} aria-describedby="pe-save-state">
            Save
          </Button>
          <p id="pe-save-state" className="pe-savebar__state" role="status">
            {editor.saving ? 'Saving...' : editor.dirty ? UNSAVED_CHANGES : ALL_SAVED}
          </p>
          <a className="pe-savebar__preview" href="#pe-preview">
            See preview
          </a>
        </div>

        {outcome?.ok && !editor.dirty ? (
          <Notice tone="success" role="status" className="pe-outcome">
            {outcome.message}
          </Notice>
        ) : null}
        {showFailure ? (
          <div role="alert" className="ui-form-alert pe-outcome">
            <p className="pe-outcome__title">{PROFILE_NOT_UPDATED}</p>
            <p className="pe-outcome__message">{outcome.message}</p>
            {errors.length > 0 ? (
              <ul className="pe-outcome__errors">
                {errors.map(({ path, message }) => (
                  <li key={path}>
                    <button type="button" className="pe-error-link" onClick={() => goToField(path)}>
                      {`${[sectionLabel(sectionOfField(path)), fieldLabel(path)].filter(Boolean).join(', ')}: ${message}`}
                    </button>
                  </li>
                ))}
              </ul>
            ) : null}
          </div>
        ) : null}
        {editor.restored && editor.dirty ? (
          <Notice tone="warning" className="pe-restored">
            <span>We brought back changes you had not saved yet.</span>{' '}
            <Button variant="secondary" className="pe-small-button" onClick={editor.discardRestored}>
              Discard them
            </Button>
          </Notice>
        ) : null}

        <div role="tabpanel" id={SECTION_PANEL_ID} aria-labelledby={tabId(section)} className="pe-panel">
          <h2 className="pe-panel__title">{sectionLabel(section)}</h2>
          {account.managedBy && BUSINESS_SECTIONS.has(section) ? (
            <>
              <Notice tone="warning" className="pe-managed">
                {`Managed by ${account.managedBy.businessName} (your team leader, ${account.managedBy.username}). These fields show your team's business and only your team leader can change them.`}
              </Notice>
              <fieldset className="pe-locked" disabled aria-label={`Managed by ${account.managedBy.businessName}`}>
                <SectionBody section={section} editor={editor} />
              </fieldset>
            </>
          ) : (
            <SectionBody section={section} editor={editor} />
          )}
        </div>
      </form>

      <div className="pe__preview">
        <LivePreview account={account} document={editor.draft} />
      </div>
    </div>
  );
}

function SectionBody({ section, editor }: { section: SectionId; editor: Editor }) {
  const { account } = editor;
  const props: DocumentSectionProps = {
    doc: editor.draft,
    errors: editor.errors,
    membership: account.membership,
    setField: editor.setField,
    edit: editor.edit,
    imageStored: editor.imageStored,
  };
  switch (section) {
    case 'contact':
      return <ContactSection {...props} />;
    case 'business':
      return <BusinessSection {...props} />;
    case 'social':
      return <SocialSection {...props} />;
    case 'products':
      return <ProductsSection {...props} />;
    case 'gallery':
      return <GallerySection {...props} />;
    case 'design':
      return <DesignSection {...props} />;
    case 'qr':
      return (
        <QrSection
          username={account.username}
          isVerified={account.isVerified}
          isPublic={account.isPublic}
          name={`${account.firstName} ${account.lastName}`.trim() || account.username}
          membership={account.membership}
        />
      );
    case 'settings':
      return (
        <SettingsSection
          membership={account.membership}
          isPublic={account.isPublic}
          isVerified={account.isVerified}
          isPartner={account.isPartner ?? false}
          changeSettings={editor.changeSettings}
          renamed={editor.renamed}
        />
      );
    case 'leads':
      return <LeadsSection />;
    case 'analytics':
      return <AnalyticsSection />;
    case 'crm':
      return <CrmSection membership={account.membership} />;
    case 'teams':
      return <TeamsSection membership={account.membership} />;
    case 'billing':
      return account.managedBy ? (
        <TeamBilling membership={account.membership} team={account.managedBy} />
      ) : (
        <BillingSection onMembershipChanged={editor.membershipChanged} />
      );
    case 'cart':
      return <AccessoriesCartSection />;
    case 'orders':
      return <OrdersSection />;
  }
}

/** The chunk's entry: the section's server state goes through TanStack Query (`query-client.tsx`). */
export default function ProfileEditorWithQueries() {
  return (
    <QueryProvider>
      <ProfileEditor />
    </QueryProvider>
  );
}

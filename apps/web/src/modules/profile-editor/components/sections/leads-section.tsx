import type { Lead } from '@digicard/contracts';
import { LoadFailed } from '../../../site/components/load-failed';
import { LoadMore } from '../../../site/components/load-more';
import { ProfileLinks } from '../../api/profile';
import { useLeads } from '../../hooks/use-leads';

export const NO_LEADS = 'No leads yet. Share your profile to collect them.';

const FORM_NAMES: Record<Lead['kind'], string> = {
  lead: 'Lead form',
  exchange: 'Exchange Contact',
  'own-profile': 'Get your own Profile',
};

const dateFormat = new Intl.DateTimeFormat('en-ZA', { dateStyle: 'medium', timeStyle: 'short' });

/**
 * Leads: what visitors sent from the profile's forms, newest first, a page at a time ("Load more leads"), and the
 * CSV download (every lead, however many).
 */
export function LeadsSection() {
  const { state, retry, hasMore, more, loadMore } = useLeads();
  return (
    <>
      <p className="pe-actions">
        <a className="button-link button-link--secondary" href={ProfileLinks.leadsCsv} download>
          Download CSV
        </a>
      </p>
      {state.status === 'loading' ? (
        <p role="status">Loading...</p>
      ) : state.status === 'failed' ? (
        <LoadFailed message={state.message} retry={retry} />
      ) : state.value.leads.length === 0 ? (
        <p className="pe-list__empty">{NO_LEADS}</p>
      ) : (
        <>
          <p className="pe-note">
            {state.value.leads.length === 1 ? '1 lead' : `${state.value.leads.length} leads`}
            {hasMore ? ' shown' : ''}, newest first.
          </p>
          <ul className="pe-leads">
            {state.value.leads.map((lead) => (
              <LeadItem key={lead.id} lead={lead} />
            ))}
          </ul>
          <LoadMore list="leads" hasMore={hasMore} more={more} onLoadMore={() => void loadMore()} />
        </>
      )}
    </>
  );
}

function LeadItem({ lead }: { lead: Lead }) {
  const name = `${lead.firstName} ${lead.lastName}`.trim();
  return (
    <li className="pe-lead">
      <dl className="pe-lead__facts">
        <div>
          <dt>Date</dt>
          <dd>
            <time dateTime={lead.createdAt}>{dateFormat.format(new Date(lead.createdAt))}</time>
          </dd>
        </div>
        <div>
          <dt>Form</dt>
          <dd>{FORM_NAMES[lead.kind]}</dd>
        </div>
        <div>
          <dt>Name</dt>
          <dd>{name || '—'}</dd>
        </div>
        <div>
          <dt>Email</dt>
          <dd>{lead.email ? <a href={`mailto:${lead.email}`}>{lead.email}</a> : '—'}</dd>
        </div>
        <div>
          <dt>Phone</dt>
          <dd>{lead.phone ? <a href={`tel:${lead.phone.replace(/\s+/g, '')}`}>{lead.phone}</a> : '—'}</dd>
        </div>
        <div className="pe-lead__message">
          <dt>Message</dt>
          <dd>{lead.message || '—'}</dd>
        </div>
      </dl>
    </li>
  );
}

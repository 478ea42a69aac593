/**
 * @jest-environment @happy-dom/jest-environment
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { encodeCursor, ErrorCode, StaffMessages } from '@digicard/contracts';
import { DialogHost } from '@digicard/ui';
import {
  alerts,
  byText,
  click,
  errorOf,
  fakeGateway,
  field,
  mount,
  signIn,
  type,
  waitFor,
  type FakeAnswer,
  type Mounted,
} from '../../../testing/dom';
import { queryClient } from '../../api/query-client';
import { SessionContext } from '../../session/hooks/use-session';
import { sessionStore } from '../../session/utils/session-store';
import StaffConsole from './staff-console';

/** A next page's cursor as the gateway makes them (the web app checks each answer against the contract). */
const PAGE_2 = encodeCursor({ at: '2026-11-02T08:00:00.000000Z', id: '00000000-0000-4000-8000-000000000002' });

// The staff console's forms (react-hook-form over StaffSearchSchema, SetVanityPathsSchema and SetBusinessSchema):
// checked before anything is sent, the server's refusals on their fields, and what is sent as the server reads it.

const ACCOUNT_ID = '4f5a6b7c-8d9e-4fa0-8b1c-2d3e4f5a6b7c';
const account = {
  id: ACCOUNT_ID,
  username: 'lindiwe',
  email: 'lindiwe.d@example.co.za',
  firstName: 'Lindiwe',
  lastName: 'Dlamini',
  role: 'user',
  isVerified: false,
  createdAt: '2026-11-01T08:00:00.000Z',
};
const detail = (vanityPaths: string[] = [], businessUsername: string | null = null) => ({
  account,
  profile: { accountId: ACCOUNT_ID, username: 'lindiwe', membership: 'DigiSilver', isPartner: false, vanityPaths, businessUsername },
});
const refused = (fieldErrors: Record<string, string[]>): FakeAnswer => ({
  status: 400,
  body: { statusCode: 400, code: 'VALIDATION_FAILED', message: 'Please check the form.', fieldErrors },
});

/** The account's audit: two pages of changes (the first with the cursor of the second), newest first. */
const change = (n: number) => ({
  id: `00000000-0000-4000-8000-00000000000${n}`,
  accountId: ACCOUNT_ID,
  staffAccountId: '00000000-0000-4000-8000-0000000000aa',
  staffUsername: 'desk',
  change: 'partner',
  before: n % 2 === 0,
  after: n % 2 !== 0,
  at: `2026-11-0${n}T08:00:00.000000Z`,
});
let auditPage: (cursor?: string | null) => unknown = () => ({ entries: [], nextCursor: null });

let mounted: Mounted | null = null;
let gateway: ReturnType<typeof fakeGateway>;
let pathsAnswer: (paths: string[]) => FakeAnswer;
let businessAnswer: (business: string | null) => FakeAnswer;

beforeEach(() => {
  signIn('staff');
  pathsAnswer = (paths) => ({ status: 200, body: detail(paths) });
  businessAnswer = (business) => ({ status: 200, body: detail([], business) });
  gateway = fakeGateway({
    'POST /api/staff/account-search': () => ({ status: 200, body: { accounts: [account], nextCursor: null } }),
    [`GET /api/staff/accounts/${ACCOUNT_ID}`]: () => ({ status: 200, body: detail() }),
    [`GET /api/staff/accounts/${ACCOUNT_ID}/audit`]: (request) => ({ status: 200, body: auditPage(request.search.get('cursor')) }),
    [`PUT /api/staff/accounts/${ACCOUNT_ID}/vanity-paths`]: (request) => pathsAnswer((request.body as { paths: string[] }).paths),
    [`PUT /api/staff/accounts/${ACCOUNT_ID}/business`]: (request) =>
      businessAnswer((request.body as { businessUsername: string | null }).businessUsername),
    'GET /api/staff/failed-proofs': () => ({ status: 200, body: { orders: [], nextCursor: null } }),
    'GET /api/staff/refunds': () => ({ status: 200, body: { payments: [], nextCursor: null } }),
  });
});
afterEach(() => {
  auditPage = () => ({ entries: [], nextCursor: null });
  mounted?.unmount();
  mounted = null;
  // The console's entry wraps itself in the app's QueryProvider (the app's client).
  queryClient.clear();
});

const page = () => mounted!.container;
const searchForm = () => page().querySelector<HTMLElement>('form.staff-console__search')!;

/** The console with the app's dialogs, an account found by `query` (`found` says how many) and opened. */
async function openFromSearch(query: string, found: string, username: string, heading: string) {
  mounted = mount(
    <SessionContext value={sessionStore.get()}>
      <StaffConsole />
      <DialogHost />
    </SessionContext>,
  );
  type(field(searchForm(), 'Email, username or name'), query);
  await click(byText(searchForm(), 'Search', 'button'));
  await waitFor('the results', () => byText(page(), found));
  await click(page().querySelector(`button[aria-label="Open ${username}"]`));
  await waitFor('the account', () => byText(page(), heading));
}

/** A button of the app's confirm dialog, once it is shown. */
const dialogButton = (name: string) =>
  waitFor(`the dialog's ${name}`, () =>
    [...document.querySelectorAll<HTMLButtonElement>('[role="alertdialog"] button')].find((b) => b.textContent === name),
  );

async function openLindiwe() {
  mounted = mount(<StaffConsole />);
  type(field(searchForm(), 'Email, username or name'), 'dlamini');
  await click(byText(searchForm(), 'Search', 'button'));
  await waitFor('the result', () => byText(page(), '1 account found'));
  await click(page().querySelector('button[aria-label="Open lindiwe"]'));
  await waitFor('the account', () => byText(page(), 'Lindiwe Dlamini (lindiwe)'));
}

describe('the staff console’s forms', () => {
  it('a blank search is the contract’s words on the field, and nothing is sent', async () => {
    mounted = mount(<StaffConsole />);
    type(field(searchForm(), 'Email, username or name'), '   ');
    await click(byText(searchForm(), 'Search', 'button'));
    await waitFor('the field’s error', () => errorOf(field(searchForm(), 'Email, username or name')) === StaffMessages.queryRequired);
    expect(gateway.count('POST /api/staff/account-search')).toBe(0);
  });

  it('a wrong vanity path is named (as typed) on the field before anything is sent; good ones go as the contract makes them', async () => {
    await openLindiwe();
    const paths = () => field(page(), 'Vanity paths');
    type(paths(), 'lindiwe-promo, Bad_Path');
    await click(byText(page(), 'Save vanity paths', 'button'));
    await waitFor('the field’s error', () => errorOf(paths()) === `Bad_Path: ${StaffMessages.vanityFormat}`);
    expect(gateway.count(`PUT /api/staff/accounts/${ACCOUNT_ID}/vanity-paths`)).toBe(0);

    type(paths(), 'Lindiwe-Promo, pinnacle-point-2');
    await click(byText(page(), 'Save vanity paths', 'button'));
    await waitFor('saved', () => byText(page(), 'Vanity paths saved.'));
    expect(gateway.requests.find((r) => r.method === 'PUT')?.body).toEqual({ paths: ['lindiwe-promo', 'pinnacle-point-2'] });
    expect(paths().value).toBe('lindiwe-promo, pinnacle-point-2');
  });

  it('puts the server’s refusal of a path on the field, whether about the field or one of its paths', async () => {
    pathsAnswer = () => refused({ paths: [`dashboard: ${StaffMessages.vanityReserved}`] });
    await openLindiwe();
    const paths = () => field(page(), 'Vanity paths');
    type(paths(), 'dashboard');
    await click(byText(page(), 'Save vanity paths', 'button'));
    await waitFor('the field’s error', () => errorOf(paths()) === `dashboard: ${StaffMessages.vanityReserved}`);
    expect(alerts(page())).toEqual([]);

    pathsAnswer = () => refused({ 'paths.0': [StaffMessages.vanityTaken] });
    type(paths(), 'taken-path');
    await click(byText(page(), 'Save vanity paths', 'button'));
    await waitFor('the field’s error', () => errorOf(paths()) === StaffMessages.vanityTaken);
    expect(byText(page(), 'Vanity paths saved.')).toBeNull();
  });

  it('an empty business is sent as none; the server’s refusal of one lands on its field', async () => {
    await openLindiwe();
    const business = () => field(page(), 'Inherits from business (username)');
    await click(byText(page(), 'Save business', 'button'));
    await waitFor('saved', () => byText(page(), 'Business saved.'));
    expect(gateway.requests.filter((r) => r.method === 'PUT').map((r) => r.body)).toEqual([{ businessUsername: null }]);

    businessAnswer = () => refused({ businessUsername: [StaffMessages.businessUnknown] });
    type(business(), ' Acme ');
    await click(byText(page(), 'Save business', 'button'));
    await waitFor('the field’s error', () => errorOf(business()) === StaffMessages.businessUnknown);
    expect(gateway.requests.filter((r) => r.method === 'PUT').map((r) => r.body)[1]).toEqual({ businessUsername: 'acme' });
  });
});

describe('the account’s changes by staff', () => {
  const rows = () =>
    [...page().querySelectorAll('table.staff-console__audit tbody tr')].map((tr) => tr.querySelector('td:nth-child(5)')?.textContent);

  it('shows the first page, then the next with “Load more changes”, and reads it again from the first after a change', async () => {
    auditPage = (cursor) =>
      cursor === PAGE_2 ? { entries: [change(2), change(1)], nextCursor: null } : { entries: [change(4), change(3)], nextCursor: PAGE_2 };
    await openLindiwe();
    await waitFor('the first page', () => rows().length === 2);
    expect(rows()).toEqual(['no', 'yes']);
    await click(byText(page(), 'Load more changes', 'button'));
    await waitFor('the second page', () => rows().length === 4);
    expect(gateway.requests.filter((r) => r.path.endsWith('/audit')).map((r) => r.search.get('cursor'))).toEqual([null, PAGE_2]);
    expect(byText(page(), 'Load more changes', 'button')).toBeNull();

    // A change is the audit's newest entry: the list is read again from its first page.
    await click(byText(page(), 'Save business', 'button'));
    await waitFor('saved', () => byText(page(), 'Business saved.'));
    await waitFor('the audit read again', () => gateway.count(`GET /api/staff/accounts/${ACCOUNT_ID}/audit`) === 3);
    expect(
      gateway.requests
        .filter((r) => r.path.endsWith('/audit'))
        .at(-1)
        ?.search.get('cursor'),
    ).toBeNull();
  });

  it('says when there are no changes yet', async () => {
    await openLindiwe();
    await waitFor('the empty audit', () => byText(page(), 'No changes yet.'));
  });
});

describe('taking a print or staff role away', () => {
  const PRINTER_ID = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';
  const STAFF_ID = '1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f';
  const OTHER_STAFF_ID = '2d3e4f5a-6b7c-4d8e-9f0a-1b2c3d4e5f6a';
  const printer = { ...account, id: PRINTER_ID, username: 'sipho-print', firstName: 'Sipho', lastName: 'Nkosi', role: 'print' };
  const self = { ...account, id: STAFF_ID, username: 'thandi', firstName: 'Thandi', lastName: 'Mahlangu', role: 'staff' };
  const colleague = { ...account, id: OTHER_STAFF_ID, username: 'ayanda', firstName: 'Ayanda', lastName: 'Zulu', role: 'staff' };
  const detailOf = (a: typeof account, role = a.role) => ({ account: { ...a, role }, profile: null });
  let revocation: () => FakeAnswer;

  beforeEach(() => {
    // The signed-in staff member is `self`: the console's user, as the app's SessionProvider hands it out.
    signIn('staff', STAFF_ID);
    revocation = () => ({ status: 200, body: detailOf(printer, 'user') });
    gateway = fakeGateway({
      'POST /api/staff/account-search': () => ({ status: 200, body: { accounts: [printer, self, colleague], nextCursor: null } }),
      [`GET /api/staff/accounts/${PRINTER_ID}`]: () => ({ status: 200, body: detailOf(printer) }),
      [`GET /api/staff/accounts/${STAFF_ID}`]: () => ({ status: 200, body: detailOf(self) }),
      [`GET /api/staff/accounts/${OTHER_STAFF_ID}`]: () => ({ status: 200, body: detailOf(colleague) }),
      [`POST /api/staff/accounts/${PRINTER_ID}/role-revocation`]: () => revocation(),
      ...Object.fromEntries(
        [PRINTER_ID, STAFF_ID, OTHER_STAFF_ID].map((id) => [
          `GET /api/staff/accounts/${id}/audit`,
          () => ({ status: 200, body: { entries: [], nextCursor: null } }),
        ]),
      ),
      'GET /api/staff/failed-proofs': () => ({ status: 200, body: { orders: [], nextCursor: null } }),
      'GET /api/staff/refunds': () => ({ status: 200, body: { payments: [], nextCursor: null } }),
    });
  });

  const openAccount = (username: string, heading: string) => openFromSearch('example', '3 accounts found', username, heading);

  const account_ = () => page().querySelector<HTMLElement>('section.staff-console__account')!;
  const rowOf = (username: string) =>
    [...page().querySelectorAll<HTMLElement>('.staff-console__row')].find((row) => row.textContent?.includes(` ${username} `))!;
  const revocations = () => gateway.requests.filter((r) => r.path.endsWith('/role-revocation'));

  it('asks first; Cancel sends nothing; yes takes the print role away and the row and the account show the new role', async () => {
    await openAccount('sipho-print', 'Sipho Nkosi (sipho-print)');
    expect(byText(account_(), 'Make team leader', 'button')).toBeNull();
    await click(byText(account_(), 'Remove print access', 'button'));
    const dialog = await waitFor('the question', () => document.querySelector('[role="alertdialog"]'));
    expect(document.getElementById(dialog.getAttribute('aria-labelledby')!)?.textContent).toBe(
      'Remove the print access of Sipho Nkosi (sipho-print)?',
    );
    await click(await dialogButton('Cancel'));
    await waitFor('the dialog to close', () => document.querySelector('[role="alertdialog"]') === null);
    expect(revocations()).toEqual([]);

    await click(byText(account_(), 'Remove print access', 'button'));
    await click(await dialogButton('Remove print access'));
    await waitFor('saved', () => byText(account_(), 'Role saved.'));
    expect(revocations().map((r) => [r.method, r.path, r.body])).toEqual([
      ['POST', `/api/staff/accounts/${PRINTER_ID}/role-revocation`, { role: 'print' }],
    ]);
    expect(account_().querySelector('[data-testid="staff-role"]')?.textContent).toBe('user');
    expect(rowOf('sipho-print').querySelector('span')?.textContent).toMatch(/· user$/);
    expect(byText(account_(), 'Remove print access', 'button')).toBeNull();
    expect(byText(account_(), 'Make team leader', 'button')).not.toBeNull();
  });

  it('says the server’s refusal (a screen out of date) and leaves the role shown as it was', async () => {
    revocation = () => ({ status: 409, body: { statusCode: 409, code: ErrorCode.Conflict, message: StaffMessages.roleNotHeld } });
    await openAccount('sipho-print', 'Sipho Nkosi (sipho-print)');
    await click(byText(account_(), 'Remove print access', 'button'));
    await click(await dialogButton('Remove print access'));
    await waitFor('the refusal', () => alerts(account_()).includes(StaffMessages.roleNotHeld));
    expect(account_().querySelector('[data-testid="staff-role"]')?.textContent).toBe('print');
    expect(rowOf('sipho-print').querySelector('span')?.textContent).toMatch(/· print$/);
  });

  it('offers another staff member’s staff role, but no button to take away one’s own, and says why', async () => {
    await openAccount('ayanda', 'Ayanda Zulu (ayanda)');
    expect(byText(account_(), 'Remove staff access', 'button')).not.toBeNull();
    await click(page().querySelector('button[aria-label="Open thandi"]'));
    await waitFor('one’s own account', () => byText(page(), 'Thandi Mahlangu (thandi)'));
    expect(byText(account_(), 'Remove staff access', 'button')).toBeNull();
    expect(byText(account_(), StaffMessages.revokeOwnRole)).not.toBeNull();
    expect(revocations()).toEqual([]);
  });
});

describe('a team leader’s company sign-in and SCIM', () => {
  const LEADER_ID = '3e4f5a6b-7c8d-4e9f-8a0b-1c2d3e4f5a6b';
  const leader = { ...account, id: LEADER_ID, username: 'pinnacle', firstName: 'Naledi', lastName: 'Khumalo', role: 'teamLeader' };
  const both = {
    sso: { configured: true, required: true, issuer: 'https://login.microsoftonline.com/pinnacle/v2.0' },
    scim: { configured: true, createdAt: '2026-11-20T08:00:00.000Z', lastUsedAt: null },
  };
  let state: () => FakeAnswer;
  let off: (body: { sso: boolean; scim: boolean }) => FakeAnswer;

  beforeEach(() => {
    state = () => ({ status: 200, body: both });
    off = (body) => ({
      status: 200,
      body: {
        sso: body.sso ? { configured: false, required: false, issuer: null } : both.sso,
        scim: body.scim ? { configured: false, createdAt: null, lastUsedAt: null } : both.scim,
      },
    });
    gateway = fakeGateway({
      'POST /api/staff/account-search': () => ({ status: 200, body: { accounts: [leader], nextCursor: null } }),
      [`GET /api/staff/accounts/${LEADER_ID}`]: () => ({ status: 200, body: { account: leader, profile: null } }),
      [`GET /api/staff/accounts/${LEADER_ID}/audit`]: () => ({ status: 200, body: { entries: [], nextCursor: null } }),
      [`GET /api/staff/accounts/${LEADER_ID}/team-sign-in`]: () => state(),
      [`POST /api/staff/accounts/${LEADER_ID}/team-sign-in/off`]: (request) => off(request.body as { sso: boolean; scim: boolean }),
      'GET /api/staff/failed-proofs': () => ({ status: 200, body: { orders: [], nextCursor: null } }),
      'GET /api/staff/refunds': () => ({ status: 200, body: { payments: [], nextCursor: null } }),
    });
  });

  const panel = () => page().querySelector<HTMLElement>('section.staff-console__team-sign-in')!;
  const openLeader = () => openFromSearch('pinnacle', '1 account found', 'pinnacle', 'Naledi Khumalo (pinnacle)');

  it('shows both as configured, and turning company sign-in off (after asking) shows what the server answered', async () => {
    await openLeader();
    await waitFor('the state', () => panel().querySelector('[data-testid="staff-sso"]'));
    expect(panel().querySelector('[data-testid="staff-sso"]')?.textContent).toBe(
      'configured (https://login.microsoftonline.com/pinnacle/v2.0), required',
    );
    expect(panel().querySelector('[data-testid="staff-scim"]')?.textContent).toMatch(/^token made .+, last used never$/);

    await click(byText(panel(), 'Turn company sign-in off', 'button'));
    await click(await dialogButton('Cancel'));
    expect(gateway.count(`POST /api/staff/accounts/${LEADER_ID}/team-sign-in/off`)).toBe(0);

    await click(byText(panel(), 'Turn company sign-in off', 'button'));
    await click(await dialogButton('Turn off'));
    await waitFor('off', () => panel().querySelector('[data-testid="staff-sso"]')?.textContent === 'off');
    expect(gateway.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/off')).map((r) => r.body)).toEqual([
      { sso: true, scim: false },
    ]);
    expect(byText(panel(), 'Turn company sign-in off', 'button')).toBeNull();
    expect(byText(panel(), 'Turn SCIM off', 'button')).not.toBeNull();
  });

  it('says why the state did not load and reads it again with “Try again”', async () => {
    state = () => ({ status: 503, body: { statusCode: 503, code: ErrorCode.ServiceUnavailable, message: 'Unavailable.' } });
    await openLeader();
    await waitFor('the failure', () => alerts(panel()).includes('The team’s sign-in settings could not be loaded.'));
    state = () => ({ status: 200, body: both });
    await click(byText(panel(), 'Try again', 'button'));
    await waitFor('the state', () => panel().querySelector('[data-testid="staff-sso"]'));
    expect(gateway.count(`GET /api/staff/accounts/${LEADER_ID}/team-sign-in`)).toBe(2);
  });

  it('says the server’s refusal of turning off and keeps what was shown', async () => {
    off = () => ({ status: 503, body: { statusCode: 503, code: ErrorCode.ServiceUnavailable, message: 'Please try again in a moment.' } });
    await openLeader();
    await waitFor('the state', () => panel().querySelector('[data-testid="staff-scim"]'));
    await click(byText(panel(), 'Turn SCIM off', 'button'));
    await click(await dialogButton('Turn off'));
    await waitFor('the refusal', () => alerts(panel()).includes('Please try again in a moment.'));
    expect(panel().querySelector('[data-testid="staff-scim"]')?.textContent).toMatch(/^token made /);
  });
});

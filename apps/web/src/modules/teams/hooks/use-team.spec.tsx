/**
 * @jest-environment @happy-dom/jest-environment
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { encodeCursor, TeamMessages, type Rep } from '@digicard/contracts';
import { act } from 'react';
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
  type FakeRequest,
  type Mounted,
} from '../../../testing/dom';
import { TeamsSection } from '../components/teams-section';

/** A next page's cursor as the gateway makes them (the web app checks each answer against the contract). */
const PAGE_2 = encodeCursor({ at: '2026-11-02T08:00:00.000000Z', id: '00000000-0000-4000-8000-000000000002' });

// The Teams section over TanStack Query: each change of the team (adding a rep from the form, a CSV import, an edit,
// a deletion) reads the reps and the leader view again; a refused change or a dry run reads nothing again. The forms
// check themselves with the contract's schemas before anything is sent, and put the server's field errors on their
// fields (the CSV's row errors in their rows).

const rep = (username: string, firstName: string, accountId: string): Rep => ({
  active: true,
  username,
  firstName,
  lastName: 'Mahlangu',
  email: `${username}@karoo-solar.co.za`,
  tel: '0831112222',
  accountId,
  addedAt: '2026-11-01T08:00:00.000Z',
});
const SIPHO = rep('sipho-rep', 'Sipho', '1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f');
const LERATO = rep('lerato-rep', 'Lerato', '2d3e4f5a-6b7c-4d8e-9fa0-1b2c3d4e5f6a');
const counts = { views: 0, visitors: 0, saves: 0, clicks: 0, leads: 0 };
const report = (reps: Rep[]) => ({
  full: true,
  from: '2026-10-27',
  to: '2026-11-25',
  reps: reps.map((r) => ({ ...counts, accountId: r.accountId, username: r.username, firstName: r.firstName, lastName: r.lastName })),
  totals: counts,
  nextCursor: null,
});

let team: Rep[];
let mounted: Mounted | null = null;
let gateway: ReturnType<typeof fakeGateway>;
let addAnswer: (request: FakeRequest) => FakeAnswer;
let importAnswer: (request: FakeRequest) => FakeAnswer;

/** When set, how the leader view's numbers are answered (later, say). */
let slowNumbers: (() => Promise<FakeAnswer>) | null = null;

beforeEach(() => {
  signIn('teamLeader');
  slowNumbers = null;
  team = [SIPHO];
  addAnswer = () => {
    team = [...team, LERATO];
    return { status: 201, body: LERATO };
  };
  importAnswer = (request) => {
    const body = request.body as { dryRun: boolean };
    if (!body.dryRun) team = [...team, LERATO];
    return { status: 200, body: { created: !body.dryRun, reps: [LERATO] } };
  };
  gateway = fakeGateway({
    'GET /api/team/reps': () => ({ status: 200, body: { reps: team, nextCursor: null } }),
    'GET /api/team/analytics': () => (slowNumbers ? slowNumbers() : { status: 200, body: report(team) }),
    'POST /api/team/reps': (request) => addAnswer(request),
    'POST /api/team/reps/import': (request) => importAnswer(request),
    [`DELETE /api/team/reps/${SIPHO.accountId}`]: () => {
      team = team.filter((r) => r !== SIPHO);
      return { status: 204 };
    },
  });
});
afterEach(() => {
  mounted?.unmount();
  mounted = null;
});

const repList = () => mounted!.container.querySelector('ul[aria-label="Sales reps"]');
const names = () => [...(repList()?.querySelectorAll('li') ?? [])].map((li) => li.getAttribute('aria-label'));
const addForm = () => mounted!.container.querySelector<HTMLElement>('[role="form"][aria-label="Add a sales rep"]')!;
const reads = () => ({ reps: gateway.count('GET /api/team/reps'), analytics: gateway.count('GET /api/team/analytics') });

async function openTeam() {
  mounted = mount(<TeamsSection membership="DigiPlatinum" />);
  await waitFor('the reps', () => names().includes('Sipho Mahlangu'));
  await waitFor('the leader view', () => mounted!.container.querySelector('.tm-analytics table, .tm-analytics ul'));
  expect(reads()).toEqual({ reps: 1, analytics: 1 });
}

function fillRep(form: HTMLElement) {
  type(field(form, 'Username'), 'lerato-rep');
  type(field(form, 'First name'), 'Lerato');
  type(field(form, 'Last name'), 'Mahlangu');
  type(field(form, 'Email'), 'lerato-rep@karoo-solar.co.za');
  type(field(form, 'Phone'), '0831112222');
}

describe('adding a rep from the form', () => {
  it('reads the reps and the leader view again once the rep is added', async () => {
    await openTeam();
    fillRep(addForm());
    type(field(addForm(), 'Your password, to confirm'), 'karoo solar leader 2026');
    await click(byText(addForm(), 'Add rep', 'button'));
    await waitFor('the new rep in the list', () => names().includes('Lerato Mahlangu'));
    await waitFor('the leader view read again', () => reads().analytics === 2);
    expect(reads()).toEqual({ reps: 2, analytics: 2 });
    expect(byText(mounted!.container, TeamMessages.repAdded)).not.toBeNull();
    const sent = gateway.requests.find((r) => r.method === 'POST');
    expect(sent?.headers.get('x-csrf-token')).toBe('csrf-token-1');
    expect(sent?.body).toEqual({
      username: 'lerato-rep',
      firstName: 'Lerato',
      lastName: 'Mahlangu',
      email: 'lerato-rep@karoo-solar.co.za',
      tel: expect.any(String),
      password: '',
      leaderPassword: 'karoo solar leader 2026',
    });
  });

  it('checks the form first: blank rep fields are the spec’s one alert, and nothing is sent or read again', async () => {
    await openTeam();
    await click(byText(addForm(), 'Add rep', 'button'));
    await waitFor('the alert', () => alerts(addForm()).includes(TeamMessages.fillAllFields));
    expect(gateway.count('POST /api/team/reps')).toBe(0);
    fillRep(addForm());
    await click(byText(addForm(), 'Add rep', 'button'));
    await waitFor('the password’s error', () => errorOf(field(addForm(), 'Your password, to confirm')) === TeamMessages.passwordRequired);
    expect(gateway.count('POST /api/team/reps')).toBe(0);
    expect(reads()).toEqual({ reps: 1, analytics: 1 });
  });

  it('a refusal puts the server’s field errors on their fields and reads nothing again', async () => {
    addAnswer = () => ({
      status: 400,
      body: {
        statusCode: 400,
        code: 'VALIDATION_FAILED',
        message: 'Please check the form.',
        fieldErrors: { username: ['That username is taken.'] },
      },
    });
    await openTeam();
    fillRep(addForm());
    type(field(addForm(), 'Your password, to confirm'), 'karoo solar leader 2026');
    await click(byText(addForm(), 'Add rep', 'button'));
    await waitFor('the username’s error', () => errorOf(field(addForm(), 'Username')) === 'That username is taken.');
    expect(alerts(addForm())).toEqual([]);
    await act(() => new Promise((resolve) => setTimeout(resolve, 30)));
    expect(reads()).toEqual({ reps: 1, analytics: 1 });
  });
});

describe('deleting a rep', () => {
  it('reads the list again once the rep is deleted (after the confirmation)', async () => {
    const { DialogHost } = await import('@digicard/ui');
    mounted = mount(
      <>
        <TeamsSection membership="DigiPlatinum" />
        <DialogHost />
      </>,
    );
    await waitFor('the reps', () => names().includes('Sipho Mahlangu'));
    await click(mounted.container.querySelector('button[aria-label="Delete sipho-rep"]'));
    const yes = await waitFor('the confirmation', () => byText<HTMLButtonElement>(document.body, 'Delete rep', 'button'));
    await click(yes);
    await waitFor(
      'the rep gone',
      () => !names().includes('Sipho Mahlangu') && byText(mounted!.container, 'No sales reps yet. Add your first one below.'),
    );
    expect(gateway.count(`DELETE /api/team/reps/${SIPHO.accountId}`)).toBe(1);
    expect(reads().reps).toBe(2);
  });
});

describe('the leader view after a deletion', () => {
  it('never shows the deleted rep, not even while the numbers are read again', async () => {
    const { DialogHost } = await import('@digicard/ui');
    team = [SIPHO, LERATO];
    let answerNumbers: (() => void) | null = null;
    const numbers = () => mounted!.container.querySelector('[aria-label="Numbers per rep"]');
    const shownNames = () => [...(numbers()?.querySelectorAll('li') ?? [])].map((li) => li.getAttribute('aria-label'));
    mounted = mount(
      <>
        <TeamsSection membership="DigiPlatinum" />
        <DialogHost />
      </>,
    );
    await waitFor('both reps in the numbers', () => shownNames().includes('Sipho Mahlangu') && shownNames().includes('Lerato Mahlangu'));
    // From now on the numbers take a while to answer (as profiles can), with the reps teams has by then.
    const readsBefore = reads().analytics;
    slowNumbers = () => new Promise((resolve) => (answerNumbers = () => resolve({ status: 200, body: report(team) })));
    await click(mounted.container.querySelector('button[aria-label="Delete sipho-rep"]'));
    await click(await waitFor('the confirmation', () => byText<HTMLButtonElement>(document.body, 'Delete rep', 'button')));
    await waitFor('the numbers read again', () => reads().analytics > readsBefore && answerNumbers !== null);
    expect(shownNames()).not.toContain('Sipho Mahlangu');
    answerNumbers!();
    await waitFor('the numbers of the team as it is', () => shownNames().includes('Lerato Mahlangu'));
    expect(shownNames()).toEqual(['Lerato Mahlangu']);
  });
});

describe('the CSV import', () => {
  const section = () => mounted!.container.querySelector<HTMLElement>('section[aria-labelledby="tm-import-title"]')!;

  async function chooseFile(csv: string) {
    const input = section().querySelector<HTMLInputElement>('input[type="file"]')!;
    Object.defineProperty(input, 'files', { configurable: true, value: [new File([csv], 'reps.csv', { type: 'text/csv' })] });
    await act(async () => {
      input.dispatchEvent(new Event('change', { bubbles: true }));
      await new Promise((resolve) => setTimeout(resolve, 10));
    });
    await waitFor('the preview', () => section().querySelector('table[aria-label="Reps in the file"]'));
  }
  const csv = 'username,first name,last name,email,phone\nlerato-rep,Lerato,Mahlangu,lerato-rep@karoo-solar.co.za,0831112222\n';

  it('asks for the password on its field first; a check (dry run) reads nothing again; adding the rows does', async () => {
    await openTeam();
    await chooseFile(csv);
    await click(byText(section(), 'Check the rows', 'button'));
    await waitFor('the password’s error', () => errorOf(field(section(), 'Your password, to confirm')) === TeamMessages.passwordRequired);
    expect(gateway.count('POST /api/team/reps/import')).toBe(0);

    type(field(section(), 'Your password, to confirm'), 'karoo solar leader 2026');
    await click(byText(section(), 'Check the rows', 'button'));
    await waitFor('the rows checked', () => byText(section(), 'OK', 'td'));
    expect(reads()).toEqual({ reps: 1, analytics: 1 });

    await click(byText(section(), 'Add all 1 reps', 'button'));
    await waitFor('the new rep in the list', () => names().includes('Lerato Mahlangu'));
    await waitFor('the leader view read again', () => reads().analytics === 2);
    expect(byText(mounted!.container, TeamMessages.repAdded)).not.toBeNull();
    expect(gateway.requests.filter((r) => r.path === '/api/team/reps/import').map((r) => (r.body as { dryRun: boolean }).dryRun)).toEqual([
      true,
      false,
    ]);
  });

  it('shows a row’s errors in its row and a wrong password on its field', async () => {
    importAnswer = () => ({
      status: 400,
      body: {
        statusCode: 400,
        code: 'VALIDATION_FAILED',
        message: 'Please check the rows.',
        fieldErrors: { 'reps.0.username': ['That username is taken.'], leaderPassword: ['Incorrect password. Please try again.'] },
      },
    });
    await openTeam();
    await chooseFile(csv);
    type(field(section(), 'Your password, to confirm'), 'not my password');
    await click(byText(section(), 'Check the rows', 'button'));
    await waitFor('the row’s error', () => byText(section(), 'That username is taken.', 'td'));
    expect(alerts(section())).toEqual(['Some rows need fixing (see below). Nothing was added: correct the file and choose it again.']);
    expect(errorOf(field(section(), 'Your password, to confirm'))).toBe('Incorrect password. Please try again.');
    expect(reads()).toEqual({ reps: 1, analytics: 1 });
  });
});

describe('the leader view, a page of reps at a time', () => {
  const repNumbers = () =>
    [...mounted!.container.querySelectorAll('.tm-analytics ul[aria-label="Numbers per rep"] > li')].map((li) =>
      li.getAttribute('aria-label'),
    );

  it('shows the first page of reps, then the next with “Load more reps’ numbers”, the team’s totals from the first', async () => {
    team = [SIPHO, LERATO];
    gateway = fakeGateway({
      'GET /api/team/reps': () => ({ status: 200, body: { reps: team, nextCursor: null } }),
      'GET /api/team/analytics': (request) =>
        request.search.get('cursor') === PAGE_2
          ? { status: 200, body: { ...report([LERATO]), nextCursor: null } }
          : { status: 200, body: { ...report([SIPHO]), totals: { ...counts, views: 9 }, nextCursor: PAGE_2 } },
    });
    mounted = mount(<TeamsSection membership="DigiPlatinum" />);
    await waitFor('the first page of numbers', () => repNumbers().length === 1);
    expect(repNumbers()).toEqual(['Sipho Mahlangu']);
    await click(byText(mounted.container, 'Load more reps’ numbers', 'button'));
    await waitFor('the second page', () => repNumbers().length === 2);
    expect(repNumbers()).toEqual(['Sipho Mahlangu', 'Lerato Mahlangu']);
    expect(byText(mounted.container, 'Load more reps’ numbers', 'button')).toBeNull();
    expect(gateway.requests.filter((r) => r.path === '/api/team/analytics').map((r) => r.search.get('cursor'))).toEqual([null, PAGE_2]);
  });
});

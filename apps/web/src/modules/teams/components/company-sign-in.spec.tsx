/**
 * @jest-environment @happy-dom/jest-environment
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { SsoMessages, type SsoSettings } from '@digicard/contracts';
import {
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
import { CompanySignIn } from './company-sign-in';

// Company sign-in (react-hook-form over SaveSsoSettingsSchema, the email domains typed in one field): checked before
// it is sent, the server's errors about one domain named on the field, what is sent as the contract makes it.

const empty: SsoSettings = {
  configured: false,
  issuer: '',
  clientId: '',
  hasClientSecret: false,
  domains: [],
  required: false,
  teamId: null,
  redirectUri: 'https://digicard.example/api/sso/callback',
};

let mounted: Mounted | null = null;
let gateway: ReturnType<typeof fakeGateway>;
let saveAnswer: (body: { domains: string[] }) => FakeAnswer;

beforeEach(() => {
  signIn('teamLeader');
  saveAnswer = (body) => ({
    status: 200,
    body: {
      ...empty,
      configured: true,
      issuer: 'https://accounts.google.com',
      clientId: 'client-1',
      hasClientSecret: true,
      domains: body.domains,
    },
  });
  gateway = fakeGateway({
    'GET /api/team/sso': () => ({ status: 200, body: empty }),
    'PUT /api/team/sso': (request) => saveAnswer(request.body as { domains: string[] }),
  });
});
afterEach(() => {
  mounted?.unmount();
  mounted = null;
});

const form = () => mounted!.container.querySelector<HTMLElement>('[role="group"][aria-label="Company sign-in"]')!;

async function open() {
  mounted = mount(<CompanySignIn />);
  await waitFor('the form', () => mounted!.container.querySelector('[role="group"][aria-label="Company sign-in"]'));
}

describe('company sign-in', () => {
  it('checks every field before sending: the contract’s words on each', async () => {
    await open();
    await click(byText(form(), 'Save company sign-in', 'button'));
    await waitFor('the errors', () => errorOf(field(form(), 'Issuer URL')) === SsoMessages.issuerInvalid);
    expect(errorOf(field(form(), 'Client ID'))).toBe(SsoMessages.clientIdRequired);
    expect(errorOf(field(form(), 'Email domains'))).toBe(SsoMessages.domainsRequired);
    type(field(form(), 'Email domains'), 'karoo-solar.co.za, not a domain');
    await waitFor('the wrong domain named', () => errorOf(field(form(), 'Email domains')) === `not: ${SsoMessages.domainInvalid}`);
    expect(gateway.count('PUT /api/team/sso')).toBe(0);
  });

  it('a preset fills the issuer; the domains are sent as a list, lower-cased; the saved ones show', async () => {
    await open();
    await click(byText(form(), 'Google Workspace', 'button'));
    expect(field(form(), 'Issuer URL').value).toBe('https://accounts.google.com');
    type(field(form(), 'Client ID'), 'client-1');
    type(field(form(), 'Client secret'), 's3cret');
    type(field(form(), 'Email domains'), 'Karoo-Solar.co.za; karoo.example');
    await click(byText(form(), 'Save company sign-in', 'button'));
    await waitFor('saved', () => byText(form(), SsoMessages.saved));
    expect(gateway.requests.find((r) => r.method === 'PUT')?.body).toEqual({
      issuer: 'https://accounts.google.com',
      clientId: 'client-1',
      clientSecret: 's3cret',
      domains: ['karoo-solar.co.za', 'karoo.example'],
      required: false,
    });
    expect(field(form(), 'Client secret').value).toBe('');
    expect(field(form(), 'Email domains').value).toBe('karoo-solar.co.za, karoo.example');
  });

  it('names the domain a server’s refusal is about, on the field', async () => {
    saveAnswer = () => ({
      status: 400,
      body: {
        statusCode: 400,
        code: 'VALIDATION_FAILED',
        message: 'Please check the form.',
        fieldErrors: { 'domains.1': ['That domain signs in through another team.'] },
      },
    });
    await open();
    type(field(form(), 'Issuer URL'), 'https://accounts.google.com');
    type(field(form(), 'Client ID'), 'client-1');
    type(field(form(), 'Email domains'), 'karoo-solar.co.za, taken.example');
    await click(byText(form(), 'Save company sign-in', 'button'));
    await waitFor(
      'the error',
      () => errorOf(field(form(), 'Email domains')) === 'taken.example: That domain signs in through another team.',
    );
  });
});

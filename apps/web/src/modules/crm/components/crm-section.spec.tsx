/**
 * @jest-environment @happy-dom/jest-environment
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { CrmMessages } from '@digicard/contracts';
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
  type Mounted,
} from '../../../testing/dom';
import { CRM_SAVED, CrmSection } from './crm-section';

// The CRM webhook form (react-hook-form over SaveWebhookSchema) and its queries: the address is checked before it
// is sent, the server's refusal lands on the field, a save shows the server's answer without reading it again, a
// test lead reads the delivery log again.

const endpoint = {
  url: 'https://crm.example.com/leads',
  enabled: true,
  secret: 'whsec_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQ',
  disabledReason: null,
  updatedAt: '2026-11-20T08:00:00.000Z',
};
const delivery = {
  id: '3e4f5a6b-7c8d-4e9f-8a0b-1c2d3e4f5a6b',
  eventId: 'evt-1',
  type: 'lead.test',
  url: endpoint.url,
  status: 'succeeded',
  attempts: 1,
  lastStatusCode: 200,
  lastError: null,
  summary: 'Test lead',
  createdAt: '2026-11-20T08:01:00.000Z',
  updatedAt: '2026-11-20T08:01:01.000Z',
  nextAttemptAt: null,
};

let mounted: Mounted | null = null;
let gateway: ReturnType<typeof fakeGateway>;
let saveAnswer: () => FakeAnswer;
let deliveries: unknown[];

beforeEach(() => {
  signIn();
  deliveries = [];
  saveAnswer = () => ({ status: 200, body: { endpoint: { ...endpoint, url: 'https://crm.example.com/new' } } });
  gateway = fakeGateway({
    'GET /api/crm/webhook': () => ({ status: 200, body: { endpoint: null } }),
    'PUT /api/crm/webhook': () => saveAnswer(),
    'POST /api/crm/webhook/test': () => {
      deliveries = [delivery];
      return { status: 202, body: { deliveryId: delivery.id, message: 'Test lead sent. Its delivery shows below.' } };
    },
    'GET /api/crm/deliveries': () => ({ status: 200, body: { deliveries, nextCursor: null } }),
  });
});
afterEach(() => {
  mounted?.unmount();
  mounted = null;
});

const form = () => mounted!.container.querySelector<HTMLElement>('[role="group"][aria-label="Webhook"]')!;
const address = () => field(form(), 'Webhook address');

async function open() {
  mounted = mount(<CrmSection membership="DigiGold" />);
  await waitFor('the form', () => mounted!.container.querySelector('[role="group"][aria-label="Webhook"]'));
  await waitFor('the log', () => byText(mounted!.container, 'Nothing sent yet.'));
}

describe('the webhook form', () => {
  it('checks the address before sending it: ftp and a blank address are the contract’s words on the field', async () => {
    await open();
    type(address(), 'ftp://crm.example.com/hook');
    await click(byText(form(), 'Save webhook', 'button'));
    await waitFor('the field’s error', () => errorOf(address()) === CrmMessages.httpsOnly);
    type(address(), '');
    await waitFor('the blank address’s error', () => errorOf(address()) === 'Please enter your CRM’s webhook address.');
    expect(gateway.count('PUT /api/crm/webhook')).toBe(0);
  });

  it('puts the server’s refusal of the address on the field', async () => {
    saveAnswer = () => ({
      status: 400,
      body: {
        statusCode: 400,
        code: 'VALIDATION_FAILED',
        message: 'Please check the form.',
        fieldErrors: { url: ['That address is private.'] },
      },
    });
    await open();
    type(address(), 'https://10.0.0.1/hook');
    await click(byText(form(), 'Save webhook', 'button'));
    await waitFor('the field’s error', () => errorOf(address()) === 'That address is private.');
    expect(alerts(form())).toEqual([]);
  });

  it('a 503 is the section’s failure text in the form’s alert, the address kept', async () => {
    saveAnswer = () => ({ status: 503, body: { statusCode: 503, code: 'SERVICE_UNAVAILABLE', message: 'Notifications is unavailable.' } });
    await open();
    type(address(), 'https://crm.example.com/new');
    await click(byText(form(), 'Save webhook', 'button'));
    await waitFor('the alert', () => alerts(form()).includes('That did not work. Please try again in a minute.'));
    expect(address().value).toBe('https://crm.example.com/new');
  });

  it('a save shows the server’s answer (the secret and test appear) without reading the webhook again; Enter saves', async () => {
    await open();
    type(address(), 'https://crm.example.com/new');
    await clickEnter(address());
    await waitFor('saved', () => byText(form(), CRM_SAVED));
    await waitFor('the secret', () => byText(mounted!.container, 'Send test lead', 'button'));
    expect(gateway.count('PUT /api/crm/webhook')).toBe(1);
    expect(gateway.count('GET /api/crm/webhook')).toBe(1);
    expect(gateway.requests.find((r) => r.method === 'PUT')?.body).toEqual({ url: 'https://crm.example.com/new', enabled: true });
  });

  it('a test lead reads the delivery log again at once', async () => {
    gateway = fakeGateway({
      'GET /api/crm/webhook': () => ({ status: 200, body: { endpoint } }),
      'POST /api/crm/webhook/test': () => {
        deliveries = [delivery];
        return { status: 202, body: { deliveryId: delivery.id, message: 'Test lead sent. Its delivery shows below.' } };
      },
      'GET /api/crm/deliveries': () => ({ status: 200, body: { deliveries, nextCursor: null } }),
    });
    await open();
    await click(byText(mounted!.container, 'Send test lead', 'button'));
    await waitFor('the message', () => byText(mounted!.container, 'Test lead sent. Its delivery shows below.'));
    await waitFor('the delivery in the log', () => byText(mounted!.container, 'Delivered', 'td'));
    expect(gateway.count('GET /api/crm/deliveries')).toBe(2);
  });
});

async function clickEnter(input: HTMLInputElement) {
  await act(async () => {
    input.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
    await Promise.resolve();
  });
}

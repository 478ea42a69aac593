import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { type AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { build } from 'esbuild';
import { chromium, type Browser, type Page } from 'playwright-core';
import { LeadThanks } from '@digicard/contracts';
import { clientScript, profileCss, renderProfilePage } from '../src/index.js';
import { pageOptions, sampleProfile } from './sample-profile.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

interface Received {
  body: Record<string, unknown>;
  csrf: string | undefined;
  contentType: string | undefined;
}

/** A stand-in gateway: the page, its script, /api/session and a leads endpoint that answers by first name. */
async function startServer(previewBundle: string): Promise<{ server: Server; url: string; received: Received[] }> {
  const received: Received[] = [];
  const json = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path === '/thabo') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      return res.end(renderProfilePage({ ...pageOptions(), scriptUrl: `/assets/profile-page.js?v=${clientScript().hash}` }));
    }
    if (path === '/assets/profile-page.js') {
      res.writeHead(200, { 'content-type': 'text/javascript' });
      return res.end(readFileSync(clientScript().path));
    }
    if (path === '/preview') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      return res.end(
        `<!doctype html><html lang="en"><head><style>${profileCss}</style></head><body><div id="root"></div><script src="/preview.js"></script></body></html>`,
      );
    }
    if (path === '/preview.js') {
      res.writeHead(200, { 'content-type': 'text/javascript' });
      return res.end(previewBundle);
    }
    if (path === '/api/session') return json(res, 200, { user: null, csrfToken: 'owner-token' });
    if (path === '/api/profiles/thabo/leads' && req.method === 'POST') {
      let text = '';
      for await (const chunk of req) text += String(chunk);
      const body = JSON.parse(text) as Record<string, unknown>;
      const csrf = req.headers['x-csrf-token'] as string | undefined;
      received.push({ body, csrf, contentType: req.headers['content-type'] });
      await new Promise((resolve) => setTimeout(resolve, 150));
      switch (body['firstName']) {
        case 'Owner':
          return csrf === 'owner-token'
            ? json(res, 202, { message: 'ok' })
            : json(res, 403, { statusCode: 403, code: 'FORBIDDEN', message: 'Forbidden.' });
        case 'Busy':
          return json(res, 429, { statusCode: 429, code: 'TOO_MANY_REQUESTS', message: 'Too many tries. Please wait a minute.' });
        case 'Broken':
          res.writeHead(502);
          return res.end('Bad gateway');
        case '':
          return json(res, 400, {
            statusCode: 400,
            code: 'VALIDATION_FAILED',
            message: 'Please correct the highlighted fields.',
            fieldErrors: { firstName: ['Please enter your name.'], consent: ['Please agree that the owner may contact you.'] },
          });
        default:
          return json(res, 202, { message: 'ok' });
      }
    }
    res.writeHead(404);
    res.end();
  };
  const server = createServer((req, res) => void handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, received };
}

/** The dashboard's use: ProfileView rendered by React in the browser, mode 'preview' (bundled from the build). */
async function bundlePreview(): Promise<string> {
  const index = fileURLToPath(new URL('../dist/src/index.js', import.meta.url));
  const result = await build({
    stdin: {
      contents: `
        import { createElement } from 'react';
        import { createRoot } from 'react-dom/client';
        import { ProfileView } from ${JSON.stringify(index)};
        const options = ${JSON.stringify(pageOptions(sampleProfile()))};
        createRoot(document.getElementById('root')).render(createElement(ProfileView, { ...options, mode: 'preview' }));
      `,
      resolveDir: fileURLToPath(new URL('.', import.meta.url)),
      loader: 'js',
    },
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'silent',
  });
  return result.outputFiles[0]!.text;
}

describe('the public page script and the preview in Chromium', () => {
  let browser: Browser;
  let server: Server;
  let base: string;
  let received: Received[];

  beforeAll(async () => {
    ({ server, url: base, received } = await startServer(await bundlePreview()));
    // A missing Chromium fails here, loudly: tests never skip (install it with `apt-get install -y chromium`).
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => server?.close(resolve));
  });

  const open = async (path = '/thabo'): Promise<Page> => {
    const page = await (await browser.newContext({ viewport: { width: 360, height: 800 } })).newPage();
    await page.goto(`${base}${path}`);
    return page;
  };
  const expanded = (page: Page, name: string) => page.getByRole('button', { name, exact: true }).getAttribute('aria-expanded');

  for (const path of ['/thabo', '/preview']) {
    it(`${path}: toggles the panels; Exchange Contact and Get your own Profile close each other`, async () => {
      const page = await open(path);
      const exchange = page.getByRole('form', { name: 'Exchange Contact' });
      const own = page.getByRole('form', { name: 'Get your own Profile' });
      assert.equal(await exchange.isVisible(), false);

      await page.getByRole('button', { name: 'Exchange Contact' }).click();
      assert.equal(await expanded(page, 'Exchange Contact'), 'true');
      assert.ok(await exchange.isVisible());

      await page.getByRole('button', { name: 'Get your own Profile' }).click();
      assert.equal(await expanded(page, 'Exchange Contact'), 'false');
      assert.equal(await expanded(page, 'Get your own Profile'), 'true');
      assert.equal(await exchange.isVisible(), false);
      assert.ok(await own.isVisible());

      await page.getByRole('button', { name: 'About Me' }).click();
      await page.getByRole('button', { name: 'Let me get in contact with you.' }).click();
      assert.ok(await own.isVisible(), 'About Me and the lead form toggle alone');
      assert.ok(await page.getByText('Ask me about solar.').isVisible());
      assert.ok(await page.getByRole('form', { name: 'Let me get in contact with you.' }).isVisible());

      await page.getByRole('button', { name: 'About Me' }).press('Enter');
      assert.equal(await expanded(page, 'About Me'), 'false');
      assert.equal(await page.getByText('Ask me about solar.').isVisible(), false);
      await page.context().close();
    });
  }

  it('sends a form as JSON, shows "Sending..." meanwhile, then the thank-you text', async () => {
    const page = await open();
    await page.getByRole('button', { name: 'Get your own Profile' }).click();
    const form = page.getByRole('form', { name: 'Get your own Profile' });
    await form.getByLabel('First name').fill('Lindiwe');
    await form.getByLabel('Last name').fill('Dlamini');
    await form.getByLabel('Email').fill('lindiwe@example.co.za');
    await form.getByLabel('I agree that Thabo may contact me about this.').check();
    const before = received.length;
    await form.getByRole('button', { name: 'Send' }).click();
    const sending = page.getByRole('button', { name: 'Sending...' });
    assert.ok(await sending.isDisabled());
    const status = page.getByRole('status');
    await status.waitFor();
    assert.equal(await status.textContent(), LeadThanks['own-profile']);
    assert.equal(await form.count(), 0);
    // One idempotency key per form shown, so a retry after a lost answer is stored once.
    const { idempotencyKey, ...body } = (received[before]?.body ?? {}) as Record<string, unknown>;
    assert.match(String(idempotencyKey), /^[0-9a-f]{32}$/);
    assert.deepEqual(
      { ...received[before], body },
      {
        body: {
          kind: 'own-profile',
          firstName: 'Lindiwe',
          lastName: 'Dlamini',
          email: 'lindiwe@example.co.za',
          phone: '',
          message: '',
          consent: true,
          website: '',
        },
        csrf: undefined,
        contentType: 'application/json',
      },
    );
    await page.context().close();
  });

  it('shows each field error beside its field and focuses the first', async () => {
    const page = await open();
    await page.getByRole('button', { name: 'Let me get in contact with you.' }).click();
    const form = page.getByRole('form', { name: 'Let me get in contact with you.' });
    await form.getByRole('button', { name: 'Send' }).click();
    await form.getByText('Please enter your name.').waitFor();
    const first = form.getByLabel('First name');
    assert.equal(await first.getAttribute('aria-invalid'), 'true');
    assert.equal(await first.getAttribute('aria-describedby'), 'pv-lead-firstName-error');
    assert.equal(await page.locator('#pv-lead-firstName-error').textContent(), 'Please enter your name.');
    assert.ok(await first.evaluate((el) => el === document.activeElement));
    assert.equal(await form.getByLabel(/I agree/).getAttribute('aria-invalid'), 'true');
    assert.equal(await form.getByLabel('Email').getAttribute('aria-invalid'), null);
    assert.equal(await form.getByRole('button', { name: 'Send' }).isDisabled(), false);

    await first.fill('Busy');
    await form.getByRole('button', { name: 'Send' }).click();
    await form.getByRole('alert').filter({ hasText: 'Too many tries. Please wait a minute.' }).waitFor();
    assert.equal(await form.locator('.pv-error').count(), 0, 'old errors are cleared');

    await first.fill('Broken');
    await form.getByRole('button', { name: 'Send' }).click();
    await form.getByRole('alert').filter({ hasText: 'We could not send your details. Please try again in a minute.' }).waitFor();
    await page.context().close();
  });

  it('retries once with the owner’s CSRF token after a 403', async () => {
    const page = await open();
    await page.getByRole('button', { name: 'Exchange Contact' }).click();
    const form = page.getByRole('form', { name: 'Exchange Contact' });
    await form.getByLabel('First name').fill('Owner');
    await form.getByLabel('Phone').fill('0821234567');
    await form.getByLabel('Email').fill('owner@example.co.za');
    await form.getByLabel(/I agree/).check();
    const before = received.length;
    await form.getByRole('button', { name: 'Send' }).click();
    await page.getByRole('status').filter({ hasText: LeadThanks.exchange }).waitFor();
    assert.deepEqual(
      received.slice(before).map((r) => [r.body['kind'], r.body['phone'], r.body['sendCard'], r.csrf]),
      [
        // The card is asked for unless the visitor unticks the box.
        ['exchange', '0821234567', true, undefined],
        ['exchange', '0821234567', true, 'owner-token'],
      ],
    );
    await page.context().close();
  });
});

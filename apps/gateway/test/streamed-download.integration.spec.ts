import assert from 'node:assert/strict';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import express from 'express';
import { createLogger } from '@digicard/config';
import { JsonWriter, streamDownload, type ResponseWriter } from '../src/http/streamed-download.js';

// The gateway's streamed downloads (the leads CSV, the data export) on a local HTTP server: the JSON written a piece
// at a time is the document JSON.stringify would write, and a page that fails once the body has begun cuts the
// connection, so the browser reports a failed download instead of keeping a file that looks complete.

const lines: string[] = [];
const logger = createLogger('gateway', 'warn', { write: (line: string) => void lines.push(line) });

const document = {
  exportedAt: '2026-01-01T00:00:00.000Z',
  account: { email: 'naledi@example.co.za', emailLinks: [] as unknown[] },
  leads: [
    { message: 'line one\nline "two"', tags: ['a', { b: null }] },
    { message: '', tags: [] },
  ],
  views: {},
  mailLog: [] as unknown[],
};

/** Writes `document` with the writer's pieces, as the export does with the services' chunks. */
async function writeDocument(out: ResponseWriter): Promise<void> {
  const json = new JsonWriter(out);
  await json.openDocument();
  await json.field('exportedAt', document.exportedAt);
  await json.openObject('account');
  await json.field('email', document.account.email);
  await json.openArray('emailLinks');
  await json.close();
  await json.close();
  await json.openArray('leads');
  for (const lead of document.leads) await json.item(lead);
  await json.close();
  await json.field('views', document.views);
  await json.field('skipped', undefined);
  await json.openArray('mailLog');
  await json.close();
  await json.close();
}

describe('streamed downloads', () => {
  let server: Server;
  let url: string;

  beforeAll(async () => {
    const app = express();
    app.get('/whole.json', (_req, res) => {
      void streamDownload(res, { contentType: 'application/json', fileName: 'whole.json' }, logger, writeDocument);
    });
    app.get('/cut.csv', (_req, res) => {
      void streamDownload(res, { contentType: 'text/csv; charset=utf-8', fileName: 'cut.csv' }, logger, async (out) => {
        for (let i = 0; i < 3000; i += 1) await out.write(`row ${i},${'x'.repeat(100)}\r\n`);
        throw new Error('the next page did not come (503)');
      });
    });
    server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
  });

  it('writes, piece by piece, the very document JSON.stringify(value, null, 2) writes', async () => {
    const res = await fetch(`${url}/whole.json`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-disposition'), 'attachment; filename="whole.json"');
    assert.equal(res.headers.get('cache-control'), 'no-store');
    assert.equal(await res.text(), JSON.stringify(document, null, 2));
  });

  it('cuts the connection when a page fails after the body began: the download fails, it does not end', async () => {
    const res = await fetch(`${url}/cut.csv`);
    assert.equal(res.status, 200, 'the status went out with the first bytes');
    await assert.rejects(res.text());
    assert.ok(
      lines.some((line) => line.includes('download cut short')),
      'and it is logged',
    );
  });
});

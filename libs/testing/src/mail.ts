import { waitFor } from './infra.js';

export interface Mail {
  id: string;
  receivedAt: string;
  from: string;
  to: string[];
  replyTo: string | null;
  subject: string;
  text: string;
  html: string | null;
  /** The Message-ID header as sent (the email worker derives it from the job id: every copy of one email has the same). */
  messageId: string | null;
  /** Files attached, their content in base64 (the mail catcher's JSON). */
  attachments: Array<{ filename: string | null; contentType: string; size: number; contentBase64: string }>;
}

/** Reads the mail catcher over HTTP, as a developer would from its JSON endpoint. */
export class MailClient {
  constructor(private readonly baseUrl: () => string) {}

  async list(to?: string): Promise<Mail[]> {
    const url = new URL('/api/messages', this.baseUrl());
    if (to) url.searchParams.set('to', to);
    const res = await fetch(url);
    if (!res.ok) throw new Error(`mail catcher answered ${res.status}`);
    // Parsed here rather than by `res.json()`, so the arrays belong to the caller's realm (Jest runs tests in a vm
    // context, and node:assert's strict deep equality compares prototypes).
    return JSON.parse(await res.text()) as Mail[];
  }

  /** Deletes every message the catcher holds. */
  async clear(): Promise<void> {
    const res = await fetch(new URL('/api/messages', this.baseUrl()), { method: 'DELETE' });
    if (!res.ok) throw new Error(`mail catcher answered ${res.status} to the deletion`);
  }

  /** Waits until a message matching `match` arrives. */
  // 30 s, as waitForCount: an email goes through the outbox, JetStream, notifications' consumer, BullMQ and SMTP, and
  // took longer than 15 s beside the browser lane (2026-11-29, xss-corpus.e2e).
  async waitFor(match: (mail: Mail) => boolean, timeoutMs = 30_000): Promise<Mail> {
    return waitFor('an email', async () => (await this.list()).find(match), timeoutMs, 200);
  }

  /** Waits until exactly `count` messages match, then checks that no more arrive for `settleMs`. */
  async waitForCount(match: (mail: Mail) => boolean, count: number, timeoutMs = 30_000, settleMs = 1500): Promise<Mail[]> {
    await waitFor(`${count} emails`, async () => (await this.list()).filter(match).length >= count, timeoutMs, 250);
    await new Promise((r) => setTimeout(r, settleMs));
    return (await this.list()).filter(match);
  }
}

import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { simpleParser, type AddressObject } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface CaughtMessage {
  id: string;
  receivedAt: string;
  envelope: { from: string | null; to: string[] };
  from: string;
  to: string[];
  replyTo: string | null;
  subject: string;
  text: string;
  html: string | null;
  messageId: string | null;
  /** Files attached (e.g. Exchange Contact's vCard), their content in base64. */
  attachments: Array<{ filename: string | null; contentType: string; size: number; contentBase64: string }>;
}

export interface MailCatcherOptions {
  host?: string;
  smtpPort?: number;
  httpPort?: number;
  /** How many messages to keep; the oldest go first. */
  keep?: number;
}

const addresses = (value: AddressObject | AddressObject[] | undefined): string[] =>
  (Array.isArray(value) ? value : value ? [value] : []).flatMap((a) => a.value.map((v) => v.address ?? '')).filter(Boolean);

const escapeHtml = (value: string): string =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** An SMTP server that accepts everything, parses it, and lists it over HTTP. For development and tests only. */
export class MailCatcher {
  readonly messages: CaughtMessage[] = [];
  private smtp: SMTPServer | null = null;
  private http: Server | null = null;
  smtpPort = 0;
  httpPort = 0;

  constructor(private readonly options: MailCatcherOptions = {}) {}

  async start(): Promise<this> {
    const host = this.options.host ?? '127.0.0.1';
    const keep = this.options.keep ?? 1000;
    this.smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData: (stream, session, callback) => {
        simpleParser(stream)
          .then((mail) => {
            this.messages.push({
              id: randomUUID(),
              receivedAt: new Date().toISOString(),
              envelope: {
                from: session.envelope.mailFrom ? session.envelope.mailFrom.address : null,
                to: session.envelope.rcptTo.map((r) => r.address),
              },
              from: addresses(mail.from)[0] ?? '',
              to: addresses(mail.to),
              replyTo: addresses(mail.replyTo)[0] ?? null,
              subject: mail.subject ?? '',
              text: mail.text ?? '',
              html: typeof mail.html === 'string' ? mail.html : null,
              messageId: mail.messageId ?? null,
              attachments: mail.attachments.map((a) => ({
                filename: a.filename ?? null,
                contentType: a.contentType,
                size: a.size,
                contentBase64: a.content.toString('base64'),
              })),
            });
            while (this.messages.length > keep) this.messages.shift();
            callback();
          })
          .catch((error: Error) => callback(error));
      },
    });
    await new Promise<void>((resolve, reject) => {
      this.smtp!.once('error', reject);
      this.smtp!.listen(this.options.smtpPort ?? 1025, host, () => resolve());
    });
    this.smtpPort = (this.smtp.server.address() as AddressInfo).port;
    this.http = createServer((req, res) => this.handle(req, res));
    await new Promise<void>((resolve, reject) => {
      this.http!.once('error', reject);
      this.http!.listen(this.options.httpPort ?? 8025, host, () => resolve());
    });
    this.httpPort = (this.http.address() as AddressInfo).port;
    return this;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => (this.http ? this.http.close(() => resolve()) : resolve()));
    await new Promise<void>((resolve) => (this.smtp ? this.smtp.close(() => resolve()) : resolve()));
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const url = new URL(req.url ?? '/', 'http://catcher');
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    };
    if (url.pathname === '/api/messages' && req.method === 'GET') {
      const to = url.searchParams.get('to');
      const list = to ? this.messages.filter((m) => m.to.includes(to) || m.envelope.to.includes(to)) : this.messages;
      return json(200, list);
    }
    if (url.pathname === '/api/messages' && req.method === 'DELETE') {
      this.messages.length = 0;
      return json(200, { deleted: true });
    }
    const one = /^\/(api\/messages|messages)\/([\w-]+)(\/html)?$/.exec(url.pathname);
    if (one && req.method === 'GET') {
      const message = this.messages.find((m) => m.id === one[2]);
      if (!message) return json(404, { error: 'no such message' });
      if (one[3]) {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(message.html ?? `<pre>${escapeHtml(message.text)}</pre>`);
        return;
      }
      return json(200, message);
    }
    if (url.pathname === '/' && req.method === 'GET') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(this.page());
      return;
    }
    json(404, { error: 'not found' });
  }

  private page(): string {
    const rows = [...this.messages]
      .reverse()
      .map(
        (m) =>
          `<tr><td>${escapeHtml(new Date(m.receivedAt).toLocaleString('en-ZA'))}</td><td>${escapeHtml(m.to.join(', '))}</td>` +
          `<td><a href="/messages/${m.id}/html">${escapeHtml(m.subject || '(no subject)')}</a></td><td>${escapeHtml(m.from)}</td></tr>`,
      )
      .join('');
    return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta http-equiv="refresh" content="5"><title>Mail catcher (${this.messages.length})</title>
<style>body{font-family:system-ui,sans-serif;margin:16px}table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #ddd;padding:6px;text-align:left}</style></head>
<body><h1>Mail catcher</h1><p>${this.messages.length} message(s) caught on SMTP port ${this.smtpPort}. JSON: <a href="/api/messages">/api/messages</a>. This page refreshes every 5 seconds.</p>
<table><thead><tr><th>Received</th><th>To</th><th>Subject</th><th>From</th></tr></thead><tbody>${rows || '<tr><td colspan="4">No mail yet.</td></tr>'}</tbody></table></body></html>`;
  }
}

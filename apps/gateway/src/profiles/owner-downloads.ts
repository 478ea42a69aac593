import { Inject, Injectable } from '@nestjs/common';
import type { Response } from 'express';
import { Rpc, type Lead, type RequestMeta } from '@digicard/contracts';
import { GatewayRpc } from '../rpc/rpc.client.js';

const csvCell = (value: string): string => {
  // A cell starting with = + - @ would run as a formula in a spreadsheet: quote it as text.
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
};

function leadsCsv(leads: Lead[]): string {
  const header = ['Received', 'Form', 'First name', 'Last name', 'Email', 'Phone', 'Message'];
  const rows = leads.map((l) => [l.createdAt, l.kind, l.firstName, l.lastName, l.email, l.phone, l.message]);
  return `\uFEFF${[header, ...rows].map((r) => r.map(csvCell).join(',')).join('\r\n')}\r\n`;
}

function teamLeadsCsv(leads: Lead[]): string {
  const header = ['Received', 'Rep', 'Form', 'First name', 'Last name', 'Email', 'Phone', 'Message'];
  const rows = leads.map((l) => [l.createdAt, l.rep ?? '', l.kind, l.firstName, l.lastName, l.email, l.phone, l.message]);
  return `\uFEFF${[header, ...rows].map((r) => r.map(csvCell).join(',')).join('\r\n')}\r\n`;
}

/** The files an owner downloads from the dashboard: the leads as CSV, and everything held about them (POPIA). */
@Injectable()
export class OwnerDownloads {
  constructor(@Inject(GatewayRpc) private readonly rpc: GatewayRpc) {}

  async leads(meta: RequestMeta, res: Response): Promise<void> {
    const { leads } = await this.rpc.call(Rpc.listLeads, {}, meta);
    res
      .status(200)
      .type('text/csv; charset=utf-8')
      .set('Content-Disposition', 'attachment; filename="leads.csv"')
      .set('Cache-Control', 'no-store')
      .send(leadsCsv(leads));
  }

  /** A team leader's team leads: their reps', current and former, with the rep of each. */
  async teamLeads(meta: RequestMeta, res: Response): Promise<void> {
    const { leads } = await this.rpc.call(Rpc.listTeamLeads, {}, meta);
    res
      .status(200)
      .type('text/csv; charset=utf-8')
      .set('Content-Disposition', 'attachment; filename="team-leads.csv"')
      .set('Cache-Control', 'no-store')
      .send(teamLeadsCsv(leads));
  }

  /**
   * Everything held about the signed-in person (POPIA's right of access), each part from the service that owns it,
   * asked as that account (`meta`): the account (identity), the profile, images, leads and analytics (profiles),
   * orders and the enquiries sent under their email (orders), payments and subscriptions (payments), their place in a
   * team (teams) and the mail sent to their address (notifications). A service that does not answer makes it 503:
   * a partial export would look complete.
   */
  async everything(meta: RequestMeta, res: Response): Promise<void> {
    const [account, profile, orders, payments, team, mail] = await Promise.all([
      this.rpc.call(Rpc.exportAccountData, {}, meta),
      this.rpc.call(Rpc.exportData, {}, meta),
      this.rpc.call(Rpc.exportOrdersData, {}, meta),
      this.rpc.call(Rpc.exportPaymentsData, {}, meta),
      this.rpc.call(Rpc.exportTeamsData, {}, meta),
      this.rpc.call(Rpc.exportMailData, {}, meta),
    ]);
    res
      .status(200)
      .type('application/json')
      .set('Content-Disposition', 'attachment; filename="my-digicard-data.json"')
      .set('Cache-Control', 'no-store')
      .send(JSON.stringify({ exportedAt: new Date().toISOString(), account, ...profile, ...orders, ...payments, team, ...mail }, null, 2));
  }
}

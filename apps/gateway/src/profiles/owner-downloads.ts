import { Inject, Injectable } from '@nestjs/common';
import type { Response } from 'express';
import type { z } from 'zod';
import {
  PAGE_LIMIT_MAX,
  Rpc,
  type ExportChunk,
  type ExportChunkSchema,
  type Lead,
  type LeadList,
  type PageRequestSchema,
  type RequestMeta,
  type RpcDefinition,
} from '@digicard/contracts';
import type { Logger } from '@digicard/config';
import { LOGGER } from '@digicard/server';
import { csvLine, JsonWriter, streamDownload, type ResponseWriter } from '../http/streamed-download.js';
import { GatewayRpc } from '../rpc/rpc.client.js';

const LEAD_HEADER = ['Received', 'Form', 'First name', 'Last name', 'Email', 'Phone', 'Message'];
const leadRow = (l: Lead): string[] => [l.createdAt, l.kind, l.firstName, l.lastName, l.email, l.phone, l.message];
const TEAM_LEAD_HEADER = ['Received', 'Rep', 'Form', 'First name', 'Last name', 'Email', 'Phone', 'Message'];
const teamLeadRow = (l: Lead): string[] => [l.createdAt, l.rep ?? '', l.kind, l.firstName, l.lastName, l.email, l.phone, l.message];

type ExportRpc = RpcDefinition<typeof PageRequestSchema, typeof ExportChunkSchema>;

/**
 * The parts of the data export, each from the service that owns it, in the order the file shows them; `under` nests a
 * part in an object of that name (the account, the team), the others' fields and lists sit at the top.
 */
const ExportParts: ReadonlyArray<{ rpc: ExportRpc; under?: string }> = [
  { rpc: Rpc.exportAccountData, under: 'account' },
  { rpc: Rpc.exportData },
  { rpc: Rpc.exportOrdersData },
  { rpc: Rpc.exportPaymentsData },
  { rpc: Rpc.exportTeamsData, under: 'team' },
  { rpc: Rpc.exportMailData },
];

/**
 * The files an owner downloads from the dashboard: the leads as CSV, and everything held about them (POPIA). Each is
 * streamed: the gateway asks the services for one page after another (each page one NATS reply, PAGE_MAX_BYTES at
 * most) and writes each to the response as it arrives, so an owner with thousands of long leads gets every one of
 * them, and no reply on the bus ever holds the whole file.
 */
@Injectable()
export class OwnerDownloads {
  constructor(
    @Inject(GatewayRpc) private readonly rpc: GatewayRpc,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  leads(meta: RequestMeta, res: Response): Promise<void> {
    return this.leadsCsv(res, 'leads.csv', LEAD_HEADER, leadRow, (cursor) =>
      this.rpc.call(Rpc.listLeads, { ...(cursor ? { cursor } : {}), limit: PAGE_LIMIT_MAX }, meta),
    );
  }

  /** A team leader's team leads: their reps', current and former, with the rep of each. */
  teamLeads(meta: RequestMeta, res: Response): Promise<void> {
    return this.leadsCsv(res, 'team-leads.csv', TEAM_LEAD_HEADER, teamLeadRow, (cursor) =>
      this.rpc.call(Rpc.listTeamLeads, { ...(cursor ? { cursor } : {}), limit: PAGE_LIMIT_MAX }, meta),
    );
  }

  /**
   * Everything held about the signed-in person (POPIA's right of access), each part from the service that owns it,
   * asked as that account (`meta`): the account (identity), the profile, images, leads and analytics (profiles),
   * orders and the enquiries sent under their email (orders), payments and subscriptions (payments), their place in a
   * team (teams) and the mail sent to their address (notifications). Every service is asked for its first chunk
   * before a byte is sent, so one that does not answer makes it 503 (a partial export would look complete); one that
   * stops answering later cuts the download (`streamDownload`).
   */
  async everything(meta: RequestMeta, res: Response): Promise<void> {
    const first = await Promise.all(ExportParts.map((part) => this.rpc.call(part.rpc, { limit: PAGE_LIMIT_MAX }, meta)));
    await streamDownload(res, { contentType: 'application/json', fileName: 'my-digicard-data.json' }, this.logger, async (out) => {
      const json = new JsonWriter(out);
      await json.openDocument();
      await json.field('exportedAt', new Date().toISOString());
      for (const [i, part] of ExportParts.entries()) {
        if (part.under) await json.openObject(part.under);
        await this.writePart(json, first[i]!, (cursor) => this.rpc.call(part.rpc, { cursor, limit: PAGE_LIMIT_MAX }, meta));
        if (part.under) await json.close();
      }
      await json.close();
    });
  }

  /** One service's part: its chunks' fields as fields, each list's pages as one array. */
  private async writePart(json: JsonWriter, first: ExportChunk, next: (cursor: string) => Promise<ExportChunk>): Promise<void> {
    let chunk = first;
    let openList: string | null = null;
    for (;;) {
      for (const [name, value] of Object.entries(chunk.fields)) {
        if (openList !== null) {
          await json.close();
          openList = null;
        }
        await json.field(name, value);
      }
      if (chunk.list) {
        if (openList !== chunk.list.name) {
          if (openList !== null) await json.close();
          await json.openArray(chunk.list.name);
          openList = chunk.list.name;
        }
        for (const item of chunk.list.items) await json.item(item);
      }
      if (!chunk.nextCursor) break;
      chunk = await next(chunk.nextCursor);
    }
    if (openList !== null) await json.close();
  }

  /** Leads as CSV, one row a lead, page after page; the first page is read before the headers go out. */
  private async leadsCsv(
    res: Response,
    fileName: string,
    header: string[],
    row: (lead: Lead) => string[],
    page: (cursor: string | null) => Promise<z.output<typeof Rpc.listLeads.response>>,
  ): Promise<void> {
    let current: LeadList = await page(null);
    await streamDownload(res, { contentType: 'text/csv; charset=utf-8', fileName }, this.logger, async (out: ResponseWriter) => {
      await out.write(`\uFEFF${csvLine(header)}`);
      for (;;) {
        for (const lead of current.leads) await out.write(csvLine(row(lead)));
        if (!current.nextCursor) break;
        current = await page(current.nextCursor);
      }
    });
  }
}

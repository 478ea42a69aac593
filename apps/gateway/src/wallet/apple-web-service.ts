import { Inject, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { PKPASS_MEDIA_TYPE, Rpc, type ApplePassFile, type ApplePassLog, type RequestMeta } from '@digicard/contracts';
import type { Logger } from '@digicard/config';
import { LOGGER } from '@digicard/server';
import { GatewayRpc } from '../rpc/rpc.client.js';

/** What a device names in the web service's paths (validated by the route's params). */
export interface PassPath {
  passTypeIdentifier: string;
  serialNumber: string;
}
export interface DevicePath {
  deviceLibraryIdentifier: string;
  passTypeIdentifier: string;
  serialNumber?: string;
}

/** An HTTP date as sent in If-Modified-Since, as ISO; null when absent or unreadable. */
export function ifModifiedSinceOf(req: Pick<Request, 'headers'>): string | null {
  const header = req.headers['if-modified-since'];
  const time = typeof header === 'string' ? Date.parse(header) : Number.NaN;
  return Number.isFinite(time) ? new Date(time).toISOString() : null;
}

/** A pass, as Wallet and browsers take it: its media type, its name, when it changed; never kept by a shared cache. */
function sendPass(res: Response, file: ApplePassFile, disposition: 'attachment' | 'inline'): void {
  res
    .status(200)
    .type(PKPASS_MEDIA_TYPE)
    .set('Content-Disposition', `${disposition}; filename="${file.fileName.replace(/[^A-Za-z0-9._-]/g, '')}"`)
    .set('Last-Modified', new Date(file.lastModified).toUTCString())
    .set('Cache-Control', 'private, no-cache')
    .set('X-Content-Type-Options', 'nosniff')
    .send(Buffer.from(file.dataBase64, 'base64'));
}

/**
 * Apple Wallet through the gateway: the owner's download, and Apple's pass web service (PassKit Web Service) for the
 * devices holding a pass. The gateway only maps HTTP to the profiles service's subjects: the pass's token (from
 * `Authorization: ApplePass`) is checked there, against the pass it names.
 */
@Injectable()
export class AppleWebService {
  constructor(
    @Inject(GatewayRpc) private readonly rpc: GatewayRpc,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async download(meta: RequestMeta, res: Response): Promise<void> {
    sendPass(res, await this.rpc.call(Rpc.issueApplePass, {}, meta), 'attachment');
  }

  async latest(path: PassPath, token: string, req: Request, meta: RequestMeta, res: Response): Promise<void> {
    const answer = await this.rpc.call(
      Rpc.latestApplePass,
      { ...path, authenticationToken: token, ifModifiedSince: ifModifiedSinceOf(req) },
      meta,
    );
    if (!answer.modified) {
      res.status(304).set('Cache-Control', 'private, no-cache').end();
      return;
    }
    sendPass(res, answer, 'inline');
  }

  async register(path: DevicePath, pushToken: string, token: string, meta: RequestMeta, res: Response): Promise<void> {
    const { created } = await this.rpc.call(
      Rpc.registerApplePassDevice,
      {
        deviceLibraryIdentifier: path.deviceLibraryIdentifier,
        passTypeIdentifier: path.passTypeIdentifier,
        serialNumber: path.serialNumber ?? '',
        authenticationToken: token,
        pushToken,
      },
      meta,
    );
    res.status(created ? 201 : 200).end();
  }

  async unregister(path: DevicePath, token: string, meta: RequestMeta, res: Response): Promise<void> {
    await this.rpc.call(
      Rpc.unregisterApplePassDevice,
      {
        deviceLibraryIdentifier: path.deviceLibraryIdentifier,
        passTypeIdentifier: path.passTypeIdentifier,
        serialNumber: path.serialNumber ?? '',
        authenticationToken: token,
      },
      meta,
    );
    res.status(200).end();
  }

  async changed(path: DevicePath, since: unknown, meta: RequestMeta, res: Response): Promise<void> {
    const tag = typeof since === 'string' && /^\d{1,12}$/.test(since) ? since : null;
    const answer = await this.rpc.call(
      Rpc.listApplePassSerials,
      { deviceLibraryIdentifier: path.deviceLibraryIdentifier, passTypeIdentifier: path.passTypeIdentifier, passesUpdatedSince: tag },
      meta,
    );
    res.set('Cache-Control', 'no-store');
    if (!answer) {
      res.status(204).end();
      return;
    }
    res.status(200).json(answer);
  }

  /** Wallet's error messages: logged (shortened, ten at most per call), nothing kept. */
  log(body: ApplePassLog, meta: RequestMeta): void {
    for (const message of body.logs.slice(0, 10))
      this.logger.warn({ requestId: meta.requestId, walletLog: message.slice(0, 500) }, 'Apple Wallet device log');
  }
}

import { Injectable } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import type { Logger } from '@digicard/config';
import { ErrorCode, type ApiError } from '@digicard/contracts';
import { isPayFastAddress } from '@digicard/payfast';

const HOUR_MS = 3_600_000;
/** More refusals than this in an hour are reported as "at least" this many (the list stays small under a flood). */
const KEPT = 10_000;

/**
 * When this replica refused a PayFast notification for its source address, over the last hour: health reports the
 * count as an alert, since a proxy that hides the client address (TRUST_PROXY, TRUST_PROXY_FROM) or a new PayFast
 * range would refuse real payments, which nobody sees otherwise.
 */
@Injectable()
export class ItnSourceRejections {
  private readonly times: number[] = [];

  record(now = Date.now()): void {
    this.times.push(now);
    if (this.times.length > KEPT) this.times.splice(0, this.times.length - KEPT);
  }

  /** How many were refused in the hour before `now`. */
  lastHour(now = Date.now()): number {
    const since = now - HOUR_MS;
    const first = this.times.findIndex((t) => t > since);
    this.times.splice(0, first === -1 ? this.times.length : first);
    return this.times.length;
  }
}

const NOT_PAYFAST: ApiError = {
  statusCode: 403,
  code: ErrorCode.Forbidden,
  message: 'Notifications are accepted from PayFast’s addresses only.',
};

/**
 * First of the ITN route's gates, before its limit and before a byte of the body is read: an address outside
 * `ranges` (the client address as `req.ip` reads it behind TRUST_PROXY) is answered 403 and the connection closed,
 * so nothing it sent is stored or counted in Redis. Each refusal is logged with the address and counted for health.
 */
export function itnSourceGate(ranges: readonly string[], rejections: ItnSourceRejections, logger: Logger) {
  return (req: Request, res: Response, next: NextFunction): void => {
    if (req.method !== 'POST') return next();
    const address = req.ip ?? '';
    if (isPayFastAddress(address, ranges)) return next();
    rejections.record();
    logger.warn({ address, ranges }, 'PayFast notification refused: its source address is not in PAYFAST_SOURCE_RANGES');
    res.setHeader('Connection', 'close');
    res.status(NOT_PAYFAST.statusCode).json(NOT_PAYFAST);
  };
}

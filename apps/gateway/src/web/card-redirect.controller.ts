import { Controller, Inject, Param, Res } from '@nestjs/common';
import type { Response } from 'express';
import { PageRoutes, Rpc, type RequestMeta } from '@digicard/contracts';
import { Meta } from '../http/request-meta.js';
import { Route } from '../http/route.js';
import { GatewayRpc } from '../rpc/rpc.client.js';

const disabledPage = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>Card disabled · DigiCard</title></head>
<body style="margin:0;padding:32px 20px;font-family:Arial,Helvetica,sans-serif;background:#eeeeee;color:#111;text-align:center">
<main style="max-width:420px;margin:0 auto;background:#fff;border-radius:8px;padding:24px">
<h1 style="font-size:20px;margin:0 0 12px">This card has been disabled</h1>
<p style="margin:0 0 16px">Its owner has disabled this DigiCard, so it no longer opens their profile.</p>
<p style="margin:0"><a href="/" style="color:#670404">Get your own DigiCard</a></p>
</main></body></html>`;

/**
 * `/c/{serial}`: what a card's NFC chip and printed QR code open. An active card redirects (302, never cached: the
 * owner may disable it or change their username) to the profile with `?src=nfc&card={serial}`: the public page
 * counts the view as an NFC one, as it does today for `?src=nfc`; `card` is there for analytics to pick up. A
 * disabled card gets a page that says so (410).
 */
@Controller()
export class CardRedirectController {
  constructor(@Inject(GatewayRpc) private readonly rpc: GatewayRpc) {}

  @Route(PageRoutes.cardRedirect)
  async card(@Param('serial') serial: string, @Meta() meta: RequestMeta, @Res() res: Response): Promise<void> {
    const target = await this.rpc.call(Rpc.resolveCard, { serial }, meta);
    res.set('Cache-Control', 'no-store');
    if (target.status === 'disabled') {
      res.status(410).type('html').send(disabledPage);
      return;
    }
    res.redirect(302, `/${encodeURIComponent(target.username)}?src=nfc&card=${encodeURIComponent(serial)}`);
  }
}

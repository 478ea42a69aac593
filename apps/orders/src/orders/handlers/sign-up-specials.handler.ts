import { Inject, Injectable } from '@nestjs/common';
import { catalogueColour, Events, type UserRegistered } from '@digicard/contracts';
import type { Logger } from '@digicard/config';
import { isSpecial } from '@digicard/domain';
import { LOGGER, OnEvent, type EventContext } from '@digicard/server';
import { CatalogueRepository } from '../../catalogue/catalogue.repository.js';
import { OrdersRepository } from '../orders.repository.js';
import { PlaceOrder } from '../use-cases/place-order.use-case.js';

/**
 * The special offer's sign-up (/registration): identity's `identity.user.registered` for a new account carries the
 * specials chosen with it, and their order is placed here, awaiting payment, in the same transaction as the record of
 * the event (a redelivery, under its id or another, places nothing twice). The owner pays it once the verification
 * link has signed them in, in any browser, or from the dashboard's Orders section, or cancels it there.
 *
 * The gateway checked the specials against the catalogue before the account was made; one withdrawn from the shop
 * since is left out (and logged) rather than holding the event up for ever.
 */
@Injectable()
export class SignUpSpecials {
  constructor(
    @Inject(PlaceOrder) private readonly placeOrder: PlaceOrder,
    @Inject(CatalogueRepository) private readonly catalogue: CatalogueRepository,
    @Inject(OrdersRepository) private readonly orders: OrdersRepository,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  @OnEvent(Events.userRegistered)
  async execute(account: UserRegistered, { tx, eventId }: EventContext): Promise<void> {
    if (!account.specials?.length) return;
    // A new account has no orders: one means this sign-up was placed already (the event again, under any id).
    if (await this.orders.hasAny(tx, account.accountId)) return;
    const catalogue = new Map(
      (
        await this.catalogue.byIds(
          tx,
          account.specials.map((line) => line.id),
        )
      ).map((row) => [row.id, row]),
    );
    // Only specials are sold with a sign-up (libs/domain); the gateway refused anything else before the account was made.
    const inShop = new Set([...catalogue.values()].filter(isSpecial).map((row) => row.id));
    // The gateway checked each colour; one withdrawn since becomes the item's first (logged), never a stuck event.
    const items = account.specials
      .filter((line) => inShop.has(line.id))
      .map(({ colour, ...line }) => {
        if (colour === undefined || catalogueColour(catalogue.get(line.id)!, colour))
          return { ...line, ...(colour === undefined ? {} : { colour }) };
        this.logger.warn(
          { eventId, accountId: account.accountId, itemId: line.id, colour },
          'sign-up special colour no longer offered: its first colour',
        );
        return line;
      });
    if (items.length < account.specials.length) {
      this.logger.warn(
        { eventId, accountId: account.accountId, dropped: account.specials.filter((l) => !inShop.has(l.id)).map((l) => l.id) },
        'sign-up specials no longer in the shop left out',
      );
    }
    if (items.length === 0) return;
    const placed = await this.placeOrder.placeIn(tx, account.accountId, { items });
    this.logger.info({ eventId, accountId: account.accountId, orderId: placed.order.id }, 'special offer order placed for a new account');
  }
}

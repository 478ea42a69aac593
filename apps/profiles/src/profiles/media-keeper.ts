import { Inject, Injectable } from '@nestjs/common';
import type { ProfileDocument } from '@digicard/contracts';
import { mediaIdsOf } from '@digicard/domain';
import type { Logger } from '@digicard/config';
import type { Transaction } from '@digicard/messaging';
import { CONFIG, LOGGER } from '@digicard/server';
import type { Config } from '../config.js';
import { MediaRepository } from './media.repository.js';

/**
 * Keeps an account's stored images to what its profile shows: after every change of the document, the images it no
 * longer shows are deleted in the same transaction, and so are uploads it never showed once they are older than
 * `UNSAVED_MEDIA_HOURS` (a gallery or product upload waits for the editor's Save that long). A deleted account's
 * images go with it (`ProfilesRepository.deleteAll`).
 */
@Injectable()
export class MediaKeeper {
  constructor(
    @Inject(MediaRepository) private readonly media: MediaRepository,
    @Inject(CONFIG) private readonly config: Config,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async dropOrphans(tx: Transaction, accountId: string, before: ProfileDocument, after: ProfileDocument): Promise<void> {
    const keep = mediaIdsOf(after);
    const dropped = mediaIdsOf(before).filter((id) => !keep.includes(id));
    const unsavedBefore = new Date(Date.now() - this.config.UNSAVED_MEDIA_HOURS * 3600_000);
    const gone = await this.media.deleteOrphanMedia(tx, accountId, keep, dropped, unsavedBefore);
    if (gone.length > 0) this.logger.info({ accountId, deleted: gone.length }, 'images no longer shown deleted');
  }
}

import { Inject, Injectable } from '@nestjs/common';
import type { z } from 'zod';
import { Events, Rpc, type RequestMeta } from '@digicard/contracts';
import sharp from 'sharp';
import {
  CONFIG,
  LOGGER,
  OnEvent,
  RpcCallError,
  buildVcard,
  vcardFileName,
  type EventContext,
  type RpcClient,
  RPC_CLIENT,
} from '@digicard/server';
import type { Logger } from '@digicard/config';
import type { Config } from '../config.js';
import { CrmHandoff } from '../crm/crm-handoff.js';
import { EmailQueue, type EmailContext } from './email.producer.js';

const meta = (eventId: string): RequestMeta => ({ requestId: `event-${eventId}`, userId: null, role: null, ip: null });

type Data<E extends { data: z.ZodType }> = z.output<E['data']>;

/**
 * The emails of a profile's visitors and the sales inbox: a lead to its owner (and to their CRM), Exchange Contact's
 * card to the visitor, an enquiry to sales. One job per event, its id derived from the event, so a redelivered event
 * never sends twice.
 */
@Injectable()
export class LeadEmails {
  constructor(
    @Inject(EmailQueue) private readonly emails: EmailQueue,
    @Inject(RPC_CLIENT) private readonly bus: RpcClient,
    @Inject(CONFIG) private readonly config: Config,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(CrmHandoff) private readonly crm: CrmHandoff,
  ) {}

  @OnEvent(Events.leadCaptured)
  async leadCaptured(lead: Data<typeof Events.leadCaptured>, context: EventContext): Promise<void> {
    const { eventId, tx, afterCommit } = context;
    await this.emails.queueAfterCommit(
      { tx, afterCommit },
      {
        template: 'lead-captured',
        sourceEventId: eventId,
        to: lead.ownerEmail,
        ownerFirstName: lead.ownerFirstName,
        lead: {
          kind: lead.kind,
          firstName: lead.firstName,
          lastName: lead.lastName,
          email: lead.email,
          phone: lead.phone,
          message: lead.message,
          createdAt: lead.createdAt,
        },
      },
    );
    if (lead.kind === 'exchange' && lead.sendCard && lead.ownerUsername) await this.sendCard(lead, eventId, { tx, afterCommit });
    if (lead.kind === 'own-profile') {
      const signUp = new URL('/register', this.config.PUBLIC_URL);
      for (const [key, value] of Object.entries({ firstName: lead.firstName, lastName: lead.lastName, email: lead.email }))
        if (value) signUp.searchParams.set(key, value);
      await this.emails.queueAfterCommit(
        { tx, afterCommit },
        {
          template: 'visitor-welcome',
          sourceEventId: eventId,
          to: lead.email,
          firstName: lead.firstName,
          ownerName: lead.ownerFirstName,
          link: signUp.toString(),
        },
      );
    }
    // DigiGold and up with a webhook turned on: the lead goes to the owner's CRM too.
    await this.crm.leadCaptured(lead, context);
  }

  @OnEvent(Events.enquiryReceived)
  async enquiryReceived(enquiry: Data<typeof Events.enquiryReceived>, { eventId, tx, afterCommit }: EventContext): Promise<void> {
    await this.emails.queueAfterCommit({ tx, afterCommit }, { template: 'enquiry-received', sourceEventId: eventId, enquiry });
  }

  /**
   * Exchange Contact, when the visitor asked for it: the owner's vCard (the same card Save to Contact serves, photo
   * included) attached to an email to the visitor. A profile that is no longer shared sends nothing.
   */
  private async sendCard(lead: Data<typeof Events.leadCaptured>, eventId: string, { tx, afterCommit }: EmailContext): Promise<void> {
    const visitor = meta(eventId);
    let found;
    try {
      found = await this.bus.call(Rpc.getPublicProfile, { username: lead.ownerUsername!, source: null }, visitor);
    } catch (error) {
      if (error instanceof RpcCallError && error.apiError?.statusCode === 404) {
        this.logger.warn({ eventId, leadId: lead.leadId }, 'Exchange Contact: the profile is no longer shared; no card sent');
        return;
      }
      throw error;
    }
    const { profile } = found;
    let photo: Buffer | null = null;
    const id = /^\/media\/([A-Za-z0-9_-]+)\./.exec(profile.document.profileImage)?.[1];
    if (id) {
      const media = await this.bus.call(Rpc.getMedia, { id }, visitor);
      photo = await sharp(Buffer.from(media.dataBase64, 'base64')).resize(300, 300, { fit: 'cover' }).jpeg({ quality: 80 }).toBuffer();
    }
    const profileUrl = `${this.config.PUBLIC_URL.replace(/\/+$/, '')}/${profile.username}`;
    await this.emails.queueAfterCommit(
      { tx, afterCommit },
      {
        template: 'exchange-card',
        sourceEventId: eventId,
        to: lead.email,
        firstName: lead.firstName,
        ownerName: `${profile.firstName} ${profile.lastName}`.trim() || profile.username,
        profileUrl,
        vcard: { fileName: vcardFileName(profile), content: buildVcard({ profile, profileUrl, photoJpeg: photo }) },
      },
    );
  }
}

import { Inject, Injectable } from '@nestjs/common';
import type { Response } from 'express';
import type { SessionResponse, SessionUser } from '@digicard/contracts';
import { CONFIG } from '@digicard/server';
import type { Config } from '../config.js';
import { clearSessionCookie, writeSessionCookie } from '../session/session.cookie.js';
import { SessionStore, type Session } from '../session/session.store.js';

/** Starts and ends the gateway's sessions, whichever way the account proved itself (a strategy, a registration, a reset). */
@Injectable()
export class SessionSignIn {
  constructor(
    @Inject(SessionStore) private readonly sessions: SessionStore,
    @Inject(CONFIG) private readonly config: Config,
  ) {}

  /** A new session id at every sign-in; the old session, if any, ends. */
  async start(res: Response, user: SessionUser, previous: Session | null): Promise<SessionResponse> {
    if (previous) await this.sessions.destroy(previous.id, previous.data.accountId);
    const session = await this.sessions.create(user.id, user.role);
    writeSessionCookie(res, session.id, this.config.SESSION_ABSOLUTE_HOURS * 3_600_000);
    return { user, csrfToken: session.data.csrfToken };
  }

  /** Deletes the session on the server, so a copied cookie stops working at once, and clears the cookie. */
  async end(res: Response, session: Session | null): Promise<void> {
    if (session) await this.sessions.destroy(session.id, session.data.accountId);
    clearSessionCookie(res);
  }
}

import { createHash, randomBytes } from 'node:crypto';

/** 128 random bits, base64url: what goes in the link. */
export const newToken = (): string => randomBytes(16).toString('base64url');

/** What is stored: a token is as good as a password, so only its hash is kept. */
export const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');

export const TOKEN_LIFETIME_MS = {
  'verify-email': 24 * 3600 * 1000,
  'reset-password': 30 * 60 * 1000,
} as const;

/** A new team rep's welcome link (a reset-password token) gives them a week to choose their password. */
export const WELCOME_LIFETIME_MS = 7 * 24 * 3600 * 1000;

import { hashEmailToken } from '@digicard/server';

/** What is stored: a token is as good as a password, so only its hash is kept (the sender of the email made it). */
export const hashToken = hashEmailToken;

export const TOKEN_LIFETIME_MS = {
  'verify-email': 24 * 3600 * 1000,
  'reset-password': 30 * 60 * 1000,
  /** The link sent to a new address: a day, like verification; a newer request replaces it. */
  'change-email': 24 * 3600 * 1000,
} as const;

/** A new team rep's welcome link (a reset-password token) gives them a week to choose their password. */
export const WELCOME_LIFETIME_MS = 7 * 24 * 3600 * 1000;

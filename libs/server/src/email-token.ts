import { createHash, randomBytes } from 'node:crypto';

/**
 * A single-use token for an email link (verification, password reset, a rep's welcome). The service that sends the
 * email makes it and keeps it for the link; identity is told only its SHA-256 (`hashEmailToken`) and stores only
 * that, so the token itself never crosses NATS, where another service could read a reply.
 */
export const newEmailToken = (): { token: string; tokenHash: string } => {
  // 128 random bits, base64url: what goes in the link.
  const token = randomBytes(16).toString('base64url');
  return { token, tokenHash: hashEmailToken(token) };
};

/** What is stored and what crosses the bus: a token is as good as a password, so only its hash. */
export const hashEmailToken = (token: string): string => createHash('sha256').update(token).digest('hex');

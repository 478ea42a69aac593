import { z } from 'zod';

/**
 * PayFast's notification servers, as its support article "What IP addresses does Payfast use" lists them (taken from
 * repositories citing it, not from PayFast's page: confirm them with PayFast before going live, and when a real
 * notification is refused).
 */
export const PAYFAST_PUBLISHED_RANGES: readonly string[] = [
  '197.97.145.144/28',
  '41.74.179.192/27',
  '102.216.36.0/28',
  '102.216.36.128/28',
  '144.126.193.139/32',
];

const IPV4_CIDR = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})(\/(\d|[12]\d|3[0-2]))?$/;

/**
 * `PAYFAST_SOURCE_RANGES` as every app reads it (the gateway refuses other senders before storing anything, payments
 * checks again before it applies a notification): IPv4 addresses or CIDRs, comma-separated, at least one. Matched by
 * `isPayFastAddress`, the one test of "sent by PayFast" both apply.
 */
export const PayFastSourceRangesSchema = z
  .string()
  .transform((value) =>
    value
      .split(',')
      .map((range) => range.trim())
      .filter(Boolean),
  )
  .refine(
    (list) => list.length > 0 && list.every((range) => IPV4_CIDR.test(range)),
    'must be a comma-separated list of IPv4 CIDRs, e.g. 127.0.0.1/32',
  );

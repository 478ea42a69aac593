import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { isPayFastAddress, PAYFAST_PUBLISHED_RANGES, PayFastSourceRangesSchema } from '../src/index.js';

describe('PAYFAST_SOURCE_RANGES: one grammar and one matcher for the gateway and payments', () => {
  it('reads IPv4 addresses and CIDRs, comma-separated, and refuses anything else or nothing', () => {
    assert.deepEqual(PayFastSourceRangesSchema.parse(' 127.0.0.1/32, 10.0.0.0/8 ,'), ['127.0.0.1/32', '10.0.0.0/8']);
    for (const bad of ['', ' , ', 'loopback', '10.0.0.0/33', '2001:db8::/32', '127.0.0.1/32,garbage'])
      assert.equal(PayFastSourceRangesSchema.safeParse(bad).success, false, bad);
  });

  it('matches the published ranges as it matches any other: the first and last address of a range, not the next', () => {
    const ranges = PayFastSourceRangesSchema.parse(PAYFAST_PUBLISHED_RANGES.join(','));
    assert.ok(isPayFastAddress('197.97.145.144', ranges));
    assert.ok(isPayFastAddress('::ffff:197.97.145.159', ranges));
    assert.equal(isPayFastAddress('197.97.145.160', ranges), false);
    assert.ok(isPayFastAddress('144.126.193.139', ranges));
    assert.equal(isPayFastAddress('144.126.193.140', ranges), false);
  });
});

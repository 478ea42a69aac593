import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { tokenEndpointAuthMethod } from './sso-flow.js';

// The client secret goes to the provider's token endpoint the way its discovery document says it takes it.
describe('how the client secret is sent', () => {
  it('by HTTP Basic when the provider lists it, first or not, or lists nothing (the standard default)', () => {
    assert.equal(tokenEndpointAuthMethod(['client_secret_post', 'private_key_jwt', 'client_secret_basic']), 'client_secret_basic');
    assert.equal(tokenEndpointAuthMethod(undefined), 'client_secret_basic');
    assert.equal(tokenEndpointAuthMethod([]), 'client_secret_basic');
  });

  it('in the body when the provider lists that and not Basic', () => {
    assert.equal(tokenEndpointAuthMethod(['client_secret_post', 'private_key_jwt']), 'client_secret_post');
  });
});

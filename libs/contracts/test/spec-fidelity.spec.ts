import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { AccountMessages, ProfileDefaults, ProfileDocumentSchema } from '../src/index.js';

// Rules the product spec states in its own words (product-spec.md, quoted), checked where they live: the contract
// the browser, the gateway and the services all validate with. decisions.md settles the spec's two versions.

describe('the spec’s words, kept by the contracts', () => {
  it('"Design defaults: profileBackgroundColor #eeeeee, opacityValue 0.5, mainFontColor #000000, ..." (section 3, with decisions.md)', () => {
    assert.deepEqual(
      {
        profileBackgroundColor: ProfileDefaults.profileBackgroundColor,
        opacityValue: ProfileDefaults.opacityValue,
        mainFontColor: ProfileDefaults.mainFontColor,
        profileBioFont: ProfileDefaults.profileBioFont,
        profileBioBackground: ProfileDefaults.profileBioBackground,
        buttonBackgroundColor: ProfileDefaults.buttonBackgroundColor,
        buttonFontColor: ProfileDefaults.buttonFontColor,
        buttonBorderColor: ProfileDefaults.buttonBorderColor,
        buttonBorderWidth: ProfileDefaults.buttonBorderWidth,
        dropdownFormsBackground: ProfileDefaults.dropdownFormsBackground,
        sendBtnBackgroundColor: ProfileDefaults.sendBtnBackgroundColor,
        profileImageWidth: ProfileDefaults.profileImageWidth,
        profileImageHeight: ProfileDefaults.profileImageHeight,
        businessLogoWidth: ProfileDefaults.businessLogoWidth,
      },
      {
        profileBackgroundColor: '#eeeeee',
        opacityValue: 0.5,
        mainFontColor: '#000000',
        profileBioFont: '#ffffff',
        profileBioBackground: '#484747',
        buttonBackgroundColor: '#670404',
        buttonFontColor: '#ffffff',
        buttonBorderColor: '#000000',
        buttonBorderWidth: 4,
        dropdownFormsBackground: '#484747',
        sendBtnBackgroundColor: '#ffffff',
        // "profileImageWidth (percent, default 50), profileImageHeight (px, default 180 ...)", "businessLogoWidth (default 50)"
        profileImageWidth: 50,
        profileImageHeight: 180,
        businessLogoWidth: 50,
      },
    );
  });

  it('"logo width 0-100 percent step 10 (default 50)" (section 9): the server refuses any other width', () => {
    const logoWidth = (businessLogoWidth: number) => ProfileDocumentSchema.safeParse({ ...ProfileDefaults, businessLogoWidth });
    for (const ok of [0, 10, 50, 90, 100]) assert.equal(logoWidth(ok).success, true, `${ok} is a step of the slider`);
    for (const bad of [-10, 5, 55, 101, 110]) {
      const result = logoWidth(bad);
      assert.equal(result.success, false, `${bad} is refused`);
      assert.equal(result.error?.issues[0]?.path.join('.'), 'businessLogoWidth');
    }
  });

  it('"other: \'Login failed. Please try again.\'" and "failure \'Failed to send reset link. Try again.\'" (section 8)', () => {
    assert.equal(AccountMessages.loginFailed, 'Login failed. Please try again.');
    assert.equal(AccountMessages.resetFailed, 'Failed to send reset link. Try again.');
    assert.equal(AccountMessages.resetSent, 'Password reset link sent. Check your email.');
    assert.equal(AccountMessages.resetEmailRequired, 'Please enter your email to reset your password.');
  });
});

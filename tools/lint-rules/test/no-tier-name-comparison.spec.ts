import { describe, it } from '@jest/globals';
import { RuleTester, type Rule } from 'eslint';
import tseslint from 'typescript-eslint';
import { noTierNameComparison } from '../src/rules/no-tier-name-comparison.js';

RuleTester.describe = describe;
RuleTester.it = it;
RuleTester.itOnly = it.only;

const tester = new RuleTester({ languageOptions: { parser: tseslint.parser } });
const rule = noTierNameComparison as unknown as Rule.RuleModule;
const error = (tier: string) => ({ messageId: 'tierNameCompared', data: { tier } });

tester.run('no-tier-name-comparison', rule, {
  valid: [
    { name: 'a feature check', code: `if (!can(membership, 'teams')) throw forbidden();` },
    { name: 'the free tier asked of libs/domain', code: `const ended = isFreeTier(change.membership);` },
    {
      name: 'a tier name as a value (a default, a message) is no comparison',
      code: `const m = row.membership ?? 'DigiShare'; const text = 'Upgrade to DigiGold';`,
    },
    { name: 'other strings compared', code: `if (status === 'active' || kind !== 'special') done();` },
    { name: 'a sentence that mentions a tier', code: `if (label === 'DigiPlatinum teams') go();` },
    { name: 'a variable that may change is not a tier name', code: `let tier = 'DigiGold';\ntier = next();\nif (tier === other) go();` },
    { name: 'a list of other strings asked', code: `if (['active', 'pending'].includes(status)) go();` },
    { name: 'the tiers listed to be shown, not asked', code: `const order = ['DigiShare', 'DigiSilver'];\nrender(order.map(label));` },
  ],
  invalid: [
    { name: 'the tier compared with !==', code: `if (membership !== 'DigiPlatinum') throw forbidden();`, errors: [error('DigiPlatinum')] },
    { name: 'the tier on the left, with ===', code: `const free = 'DigiShare' === membership;`, errors: [error('DigiShare')] },
    { name: 'loose equality', code: `if (tier == 'DigiGold') go();`, errors: [error('DigiGold')] },
    { name: 'through a constant assertion', code: `if (tier === ('DigiSilver' as const)) go();`, errors: [error('DigiSilver')] },
    { name: 'a template literal', code: 'if (tier === `DigiGold`) go();', errors: [error('DigiGold')] },
    {
      name: 'through a constant of the file',
      code: `const PLATINUM = 'DigiPlatinum';\nif (data.membership === PLATINUM && role === 'user') promote();`,
      errors: [error('DigiPlatinum')],
    },
    {
      name: 'a written-out list of tiers asked whether it holds the tier',
      code: `if (['DigiGold', 'DigiPlatinum'].includes(membership)) show();`,
      errors: [error('DigiGold')],
    },
    {
      name: 'a list constant (as const) asked with indexOf',
      code: `const PAID = ['DigiSilver', 'DigiGold'] as const;\nif (PAID.indexOf(tier) >= 0) bill();`,
      errors: [error('DigiSilver')],
    },
    {
      name: 'a Set of tiers asked with has',
      code: `const GOLDISH = new Set(['DigiGold', 'DigiPlatinum']);\nconst gold = GOLDISH.has(profile.membership);`,
      errors: [error('DigiGold')],
    },
    {
      name: 'a switch on the tier',
      code: `switch (tier) { case 'DigiPlatinum': go(); break; default: stop(); }`,
      errors: [error('DigiPlatinum')],
    },
  ],
});

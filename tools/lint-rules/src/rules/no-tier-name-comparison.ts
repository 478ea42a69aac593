import type { TSESLint, TSESTree } from '@typescript-eslint/utils';

/** The membership tiers (libs/contracts `Memberships`), spelled as the code compares them. */
const TIER_NAMES = new Set(['DigiShare', 'DigiSilver', 'DigiGold', 'DigiPlatinum']);

const COMPARISONS = new Set(['===', '!==', '==', '!=']);

/** Methods that ask whether a list of tier names holds a value: `['DigiGold', 'DigiPlatinum'].includes(tier)`. */
const MEMBERSHIP_TESTS = new Set(['includes', 'indexOf', 'has']);

type MessageIds = 'tierNameCompared';

const tierName = (node: TSESTree.Node | null | undefined): string | undefined => {
  if (!node) return undefined;
  if (node.type === 'Literal' && typeof node.value === 'string' && TIER_NAMES.has(node.value)) return node.value;
  if (node.type === 'TemplateLiteral' && node.expressions.length === 0 && TIER_NAMES.has(node.quasis[0]?.value.cooked ?? '')) {
    return node.quasis[0]?.value.cooked ?? undefined;
  }
  // `'DigiPlatinum' as const`, `<Membership>'DigiGold'`, `'DigiGold' satisfies Membership`
  if (node.type === 'TSAsExpression' || node.type === 'TSTypeAssertion' || node.type === 'TSSatisfiesExpression')
    return tierName(node.expression);
  return undefined;
};

/** Strips `as const` and the like. */
const bare = (node: TSESTree.Node | null | undefined): TSESTree.Node | null | undefined =>
  node && (node.type === 'TSAsExpression' || node.type === 'TSTypeAssertion' || node.type === 'TSSatisfiesExpression')
    ? bare(node.expression)
    : node;

/** A tier name in a written-out list: `['DigiGold', 'DigiPlatinum']`, or `new Set([...])` of one. */
const tierInList = (node: TSESTree.Node | null | undefined): string | undefined => {
  const list = bare(node);
  if (list?.type === 'ArrayExpression')
    return list.elements.map((e) => (e && e.type !== 'SpreadElement' ? tierName(e) : undefined)).find(Boolean);
  if (list?.type === 'NewExpression' && list.callee.type === 'Identifier' && list.callee.name === 'Set')
    return tierInList(list.arguments[0]);
  return undefined;
};

/**
 * What a tier unlocks is written once, in libs/domain (`can(tier, 'analytics')`, `isFreeTier(tier)`): code elsewhere
 * asks those, never compares a tier with its name (`membership !== 'DigiPlatinum'`), which silently goes wrong the
 * day a tier is added or a feature moves. Flags `===`/`!==`/`==`/`!=` with a tier name on either side (written
 * out, or a constant of the file holding one), `case 'DigiGold':`, and a list of tier names asked whether it holds a
 * value (`['DigiGold', 'DigiPlatinum'].includes(tier)`, `.indexOf`, a `new Set([...]).has`, or a constant holding one). Tests may compare (they check what the services answer); eslint.config.mjs leaves libs/domain
 * and the tests out.
 */
export const noTierNameComparison: TSESLint.RuleModule<MessageIds> = {
  meta: {
    type: 'problem',
    docs: { description: 'Tiers are checked with the feature checks of libs/domain, never compared with their names' },
    schema: [],
    messages: {
      tierNameCompared:
        "'{{tier}}' is a tier name compared as a string: ask libs/domain instead (`can(membership, '<feature>')`, `isFreeTier(membership)`), where what each tier unlocks is written once.",
    },
  },
  defaultOptions: [],
  create(context) {
    /** Constants of this file that hold a tier name (`const PLATINUM = 'DigiPlatinum'`), to the name. */
    const constants = new Map<string, string>();
    /** Constants of this file that hold a list of tier names (`const PAID = ['DigiSilver', 'DigiGold'] as const`). */
    const lists = new Map<string, string>();
    const nameOf = (node: TSESTree.Node | null | undefined): string | undefined =>
      tierName(node) ?? (node?.type === 'Identifier' ? constants.get(node.name) : undefined);
    const comparisons: Array<{ node: TSESTree.Node; sides: Array<TSESTree.Node | null> }> = [];
    const listTests: Array<{ node: TSESTree.Node; list: TSESTree.Node }> = [];
    return {
      VariableDeclarator(node) {
        const tier = tierName(node.init);
        if (tier && node.id.type === 'Identifier' && node.parent.kind === 'const') constants.set(node.id.name, tier);
        const listed = tierInList(node.init);
        if (listed && node.id.type === 'Identifier' && node.parent.kind === 'const') lists.set(node.id.name, listed);
      },
      BinaryExpression(node) {
        if (COMPARISONS.has(node.operator)) comparisons.push({ node, sides: [node.left, node.right] });
      },
      SwitchCase(node) {
        comparisons.push({ node, sides: [node.test] });
      },
      CallExpression(node) {
        const callee = node.callee;
        if (callee.type !== 'MemberExpression' || callee.property.type !== 'Identifier' || !MEMBERSHIP_TESTS.has(callee.property.name))
          return;
        listTests.push({ node, list: callee.object });
      },
      // At the end of the file, when every constant is known (one may be declared below its use).
      'Program:exit'() {
        for (const { node, sides } of comparisons) {
          const tier = sides.map(nameOf).find(Boolean);
          if (tier) context.report({ node, messageId: 'tierNameCompared', data: { tier } });
        }
        for (const { node, list } of listTests) {
          const tier = tierInList(list) ?? (list.type === 'Identifier' ? lists.get(list.name) : undefined);
          if (tier) context.report({ node, messageId: 'tierNameCompared', data: { tier } });
        }
      },
    };
  },
};

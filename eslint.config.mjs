// One lint setup for the whole workspace: type-aware TypeScript rules, and Nx module boundaries that keep each
// service to its own code plus the shared libraries (services never import each other).
import nx from '@nx/eslint-plugin';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

// The workspace's own rules, from their build (every lint target depends on `lint-rules:build`).
const digicard = await import('./tools/lint-rules/dist/src/index.js').then(
  (module) => module.default,
  (error) => {
    throw new Error('The workspace lint rules are not built: run `npx nx run lint-rules:build` first.', { cause: error });
  },
);

// Which projects may import which, by their tags (project.json).
const depConstraints = [
  { sourceTag: 'type:contracts', onlyDependOnLibsWithTags: [] },
  { sourceTag: 'type:util', onlyDependOnLibsWithTags: ['type:contracts'] },
  // The product's rules, shared by the browser and the servers: nothing but the contracts beneath them.
  { sourceTag: 'type:domain', onlyDependOnLibsWithTags: ['type:contracts'] },
  { sourceTag: 'type:ui', onlyDependOnLibsWithTags: ['type:contracts'] },
  { sourceTag: 'type:data', onlyDependOnLibsWithTags: ['type:contracts', 'type:util', 'type:data', 'type:testing'] },
  { sourceTag: 'type:testing', onlyDependOnLibsWithTags: ['type:contracts', 'type:util', 'type:data', 'type:server', 'type:testing'] },
  { sourceTag: 'type:server', onlyDependOnLibsWithTags: ['type:contracts', 'type:util', 'type:data'] },
  { sourceTag: 'type:tool', onlyDependOnLibsWithTags: ['type:contracts', 'type:util'] },
  { sourceTag: 'type:e2e', onlyDependOnLibsWithTags: ['type:contracts', 'type:testing'] },
  // The web app runs in the browser: contracts and UI only, never server code.
  { sourceTag: 'scope:web', onlyDependOnLibsWithTags: ['scope:shared', 'scope:web'] },
  { sourceTag: 'scope:web', notDependOnLibsWithTags: ['type:server', 'type:data', 'type:util'] },
  // Each service and the gateway: their own code and shared libraries, never another app.
  ...['gateway', 'identity', 'profiles', 'teams', 'orders', 'payments', 'notifications', 'tools'].map((scope) => ({
    sourceTag: `scope:${scope}`,
    onlyDependOnLibsWithTags: ['scope:shared'],
  })),
];

const boundaries = (constraints) => ({ enforceBuildableLibDependency: false, allow: [], depConstraints: constraints });

export default tseslint.config(
  { ignores: ['**/dist/**', '**/dist-ssr/**', '**/node_modules/**', '**/.nx/**', '**/test-results/**', '**/*.js', '**/vite.config.ts'] },
  ...tseslint.configs.recommendedTypeChecked,
  {
    // The plain JavaScript scripts (npm start, npm test, deploy-check, benchmarks, Jest and lint setup): the
    // recommended rules without type information; tools/dev/tsconfig.scripts.json type-checks them through JSDoc.
    files: ['**/*.mjs', '**/*.cjs'],
    ...tseslint.configs.disableTypeChecked,
    rules: {
      ...tseslint.configs.disableTypeChecked.rules,
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true },
      ],
    },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['**/*.ts', '**/*.tsx'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { '@nx': nx },
    rules: {
      '@typescript-eslint/no-floating-promises': [
        'error',
        { allowForKnownSafeCalls: [{ from: 'package', package: '@jest/globals', name: ['describe', 'it', 'test'] }] },
      ],
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@nx/enforce-module-boundaries': ['error', boundaries(depConstraints)],
    },
  },
  {
    files: ['**/test/**/*.ts'],
    rules: {
      // Tests read JSON answers whose shape they assert on.
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-unnecessary-type-assertion': 'off',
    },
  },
  {
    // What ships: an app's own code (not its tests) never imports a testing library, the e2e suite or a tool, so
    // none of them reaches the production image (Dockerfile).
    files: ['apps/*/src/**/*.ts', 'apps/*/src/**/*.tsx'],
    rules: {
      '@nx/enforce-module-boundaries': [
        'error',
        boundaries([
          ...depConstraints,
          // (Direct imports: notDependOnLibsWithTags would also follow the libraries' own test imports.)
          {
            sourceTag: 'type:app',
            onlyDependOnLibsWithTags: ['type:contracts', 'type:util', 'type:data', 'type:domain', 'type:ui', 'type:server', 'type:app'],
          },
        ]),
      ],
    },
  },
  {
    // The route tables drive every edge of the gateway: each handler carries @Route(<table entry>), never @Get & co.
    files: ['apps/gateway/src/**/*.ts'],
    plugins: { digicard },
    rules: { 'digicard/every-handler-has-route': 'error' },
  },
  {
    // What each tier unlocks lives in libs/domain: everywhere else asks its feature checks, never a tier's name.
    files: ['apps/*/src/**/*.{ts,tsx}', 'libs/*/src/**/*.{ts,tsx}', 'tools/*/src/**/*.{ts,tsx}'],
    // libs/domain owns the tiers; the rule itself must list their names to find them.
    ignores: ['libs/domain/**', 'tools/lint-rules/**'],
    plugins: { digicard },
    rules: { 'digicard/no-tier-name-comparison': 'error' },
  },
  {
    // The web pages show the prices payments serves (`usePlans`; the marketing pages arrive rendered with them), never
    // the table libs/domain keeps for payments.
    files: ['apps/web/src/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@digicard/domain',
              importNames: ['Plans', 'priceOf'],
              message: 'Prices come from payments (usePlans in modules/packages), not from libs/domain.',
            },
          ],
        },
      ],
    },
  },
  {
    // The browser's own alert/confirm/prompt dialogs are neither styled nor testable by name: the web front ends
    // show notices and questions through @digicard/ui's notice() and confirm() (one accessible dialog).
    files: ['apps/web/src/**/*.{ts,tsx}', 'libs/ui/src/**/*.{ts,tsx}', 'libs/profile-view/src/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-globals': [
        'error',
        ...['alert', 'confirm', 'prompt'].map((name) => ({
          name,
          message: `Use notice()/confirm() from @digicard/ui, not the browser's ${name}().`,
        })),
      ],
      'no-restricted-properties': [
        'error',
        ...['window', 'globalThis', 'self'].flatMap((object) =>
          ['alert', 'confirm', 'prompt'].map((property) => ({
            object,
            property,
            message: 'Use notice()/confirm() from @digicard/ui, not the browser dialogs.',
          })),
        ),
      ],
    },
  },
  {
    // Lint rules compare AST node types with the strings ESTree gives them.
    files: ['tools/lint-rules/**/*.ts'],
    rules: { '@typescript-eslint/no-unsafe-enum-comparison': 'off' },
  },
  {
    files: ['**/*.tsx'],
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
);

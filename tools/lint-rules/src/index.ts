import { everyHandlerHasRoute } from './rules/every-handler-has-route.js';
import { noTierNameComparison } from './rules/no-tier-name-comparison.js';

/**
 * The workspace's own lint rules, loaded by eslint.config.mjs from this project's build (`nx run lint-rules:build`;
 * every lint target depends on it).
 */
const plugin = {
  meta: { name: '@digicard/lint-rules', version: '0.0.0' },
  rules: { 'every-handler-has-route': everyHandlerHasRoute, 'no-tier-name-comparison': noTierNameComparison },
};

export default plugin;

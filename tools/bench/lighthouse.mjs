// Lighthouse on the marketing pages, against the real system started as the tests start it, with Debian's
// Chromium. Writes the scores to docs/lighthouse.md. Run: `npx nx run-many -t build && node tools/bench/lighthouse.mjs`.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { REPO_ROOT, TestSystem } from '../../libs/testing/dist/src/index.js';

const pages = ['/', '/pricing', '/specials/pvc-special', '/contact'];
const system = await TestSystem.start({ apps: ['identity', 'orders', 'gateway'] });
const chrome = await chromeLauncher.launch({
  chromePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
  chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
const rows = [];
try {
  for (const formFactor of ['mobile', 'desktop']) {
    for (const path of pages) {
      const result = await lighthouse(
        `${system.gatewayUrl}${path}`,
        { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo'] },
        formFactor === 'desktop'
          ? { extends: 'lighthouse:default', settings: { formFactor: 'desktop', screenEmulation: { mobile: false, width: 1350, height: 940, deviceScaleFactor: 1, disabled: false }, throttlingMethod: 'simulate' } }
          : undefined,
      );
      const c = result.lhr.categories;
      const score = (k) => Math.round((c[k]?.score ?? 0) * 100);
      const a = result.lhr.audits;
      rows.push({
        formFactor,
        path,
        performance: score('performance'),
        accessibility: score('accessibility'),
        bestPractices: score('best-practices'),
        seo: score('seo'),
        lcp: a['largest-contentful-paint']?.displayValue ?? '',
        weight: a['total-byte-weight']?.displayValue ?? '',
        failing: Object.values(a).filter((x) => x.score === 0 && ['accessibility', 'seo', 'best-practices'].some((cat) => c[cat]?.auditRefs.some((r) => r.id === x.id))).map((x) => x.id),
      });
      process.stdout.write(`${formFactor} ${path}: ${JSON.stringify(rows.at(-1))}\n`);
    }
  }
} finally {
  await chrome.kill();
  await system.stop();
}

const table = rows
  .map((r) => `| ${r.formFactor} | \`${r.path}\` | ${r.performance} | ${r.accessibility} | ${r.bestPractices} | ${r.seo} | ${r.lcp} | ${r.weight} | ${r.failing.join(', ') || '—'} |`)
  .join('\n');
writeFileSync(
  join(REPO_ROOT, 'docs', 'lighthouse.md'),
  `# Lighthouse scores

Measured by \`node tools/bench/lighthouse.mjs\` (Lighthouse ${(await import('lighthouse/package.json', { with: { type: 'json' } })).default.version}, Debian's Chromium, headless) on ${new Date().toISOString().slice(0, 10)},
against the real gateway, identity and orders services on this 2-core machine, served from localhost. "mobile" is
Lighthouse's default: a Moto G Power sized screen with simulated slow 4G and a 4x slower CPU. "desktop" is the desktop preset.
Local serving flatters network timings; the byte weights and the accessibility, best-practice and SEO audits do not
depend on it.

| form factor | page | performance | accessibility | best practices | SEO | LCP | transfer | failing audits |
|---|---|---|---|---|---|---|---|---|
${table}
`,
);
process.stdout.write('wrote docs/lighthouse.md\n');

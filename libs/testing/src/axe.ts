import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

/** axe-core's browser bundle, injected into a page as it is (the context needs `bypassCSP: true`: our CSP forbids inline scripts). */
const AXE_SCRIPT = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

/** The WCAG 2.0, 2.1 and 2.2 rules of levels A and AA. */
export const WCAG_AA_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

export interface AxeViolation {
  id: string;
  impact: 'minor' | 'moderate' | 'serious' | 'critical' | null;
  help: string;
  /** The CSS selectors of the offending elements, with axe's summary of what is wrong with each. */
  nodes: { target: string; summary: string }[];
}

interface AxeResultsInPage {
  violations: {
    id: string;
    impact?: AxeViolation['impact'];
    help: string;
    nodes: { target: unknown[]; failureSummary?: string }[];
  }[];
}

/** Runs axe-core on the page as it is now, with the WCAG A/AA rules, and returns its violations. */
export async function runAxe(page: Page): Promise<AxeViolation[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: AXE_SCRIPT });
  const results = await page.evaluate(async (tags) => {
    const axe = (window as unknown as { axe: { run: (context: Document, options: object) => Promise<AxeResultsInPage> } }).axe;
    const run = await axe.run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] });
    return {
      violations: run.violations.map((v) => ({
        id: v.id,
        impact: v.impact ?? null,
        help: v.help,
        nodes: v.nodes.map((n) => ({ target: n.target.map(String), failureSummary: n.failureSummary ?? '' })),
      })),
    };
  }, WCAG_AA_TAGS);
  return results.violations.map((v) => ({
    id: v.id,
    impact: v.impact ?? null,
    help: v.help,
    nodes: v.nodes.map((n) => ({ target: n.target.join(' '), summary: n.failureSummary ?? '' })),
  }));
}

/** One line per violation, for an assertion message: rule, impact, help, and the first few elements. */
export function describeViolations(where: string, violations: AxeViolation[]): string {
  return violations
    .map(
      (v) =>
        `${where}: ${v.id} (${v.impact ?? 'no impact'}) ${v.help}\n${v.nodes
          .slice(0, 5)
          .map((n) => `    ${n.target}: ${n.summary.replace(/\s+/g, ' ')}`)
          .join('\n')}`,
    )
    .join('\n');
}

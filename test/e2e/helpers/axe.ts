/**
 * axe-core in the page under test: its serious and critical findings, as "rule: nodes" lines
 * (an empty list is a pass). Loaded into the page once, from the installed axe-core.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const AXE_SOURCE = readFileSync(
  createRequire(import.meta.url).resolve('axe-core/axe.min.js'),
  'utf8',
);

/** Findings inside `selector` (default: the whole document). */
export async function seriousViolations(page: Page, selector?: string): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  return page.evaluate(async (context) => {
    const axe = (
      window as unknown as {
        axe: {
          run(
            context: Document | string,
            options: object,
          ): Promise<{
            violations: { id: string; impact: string | null; nodes: { target: unknown }[] }[];
          }>;
        };
      }
    ).axe;
    const result = await axe.run(context ?? document, { resultTypes: ['violations'] });
    return result.violations
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map(
        (violation) =>
          `${violation.id}: ${JSON.stringify(violation.nodes.map((node) => node.target))}`,
      );
  }, selector ?? null);
}

/**
 * What the suite does on every page it visits: a named full-page screenshot kept under
 * test-results/ (an artifact of every run, not only of failures), and an axe-core scan that fails
 * the test on any serious or critical violation. A scan costs seconds on a busy machine, so each
 * page (and dialog) is scanned once in the suite, at the state that shows most of it; its other
 * states are screenshots only (`scan: false`).
 */
import { join } from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { expect, type Page, type TestInfo } from "@playwright/test";

/** WCAG 2.0-2.2 A and AA and axe's best practices: the rule sets a dashboard is held to. */
const AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"];

export async function checkPage(
  page: Page,
  testInfo: TestInfo,
  name: string,
  options: { readonly scan?: boolean } = {},
): Promise<void> {
  const file = join(testInfo.project.outputDir, "pages", `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  await testInfo.attach(`page ${name}`, { path: file, contentType: "image/png" });
  if (options.scan === false) return;
  const results = await new AxeBuilder({ page }).withTags(AXE_TAGS).analyze();
  const severe = results.violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map((violation) => ({
      rule: violation.id,
      impact: violation.impact,
      help: violation.help,
      nodes: violation.nodes.slice(0, 3).map((node) => node.target.join(" ")),
    }));
  expect(severe, `axe: serious/critical violations on ${name}`).toEqual([]);
}

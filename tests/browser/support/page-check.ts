/**
 * What the suite does on every page it visits: a named full-page screenshot kept under
 * test-results/ (an artifact of every run, not only of failures), and an axe-core scan that fails
 * the test on any serious or critical violation (WCAG 2.x A/AA rules and axe's best practices).
 */
import { join } from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { expect, type Page, type TestInfo } from "@playwright/test";

export async function checkPage(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  const file = join(testInfo.project.outputDir, "pages", `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  await testInfo.attach(`page ${name}`, { path: file, contentType: "image/png" });
  const results = await new AxeBuilder({ page }).analyze();
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

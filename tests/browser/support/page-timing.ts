/**
 * A figure measured by the page's own clock: from the click on a navigation link until `selector`
 * matches `count` elements, seen by a MutationObserver in the page. Playwright's own steps (the
 * click's actionability checks, a poll's interval, the round trips to the browser) are left out,
 * so the figure is the dashboard's time, not the test driver's.
 */
import type { Page } from "@playwright/test";

/** Starts watching in the page; `clickedToShownMs()` then resolves once the target is shown. */
export async function watchFromNextNavClick(
  page: Page,
  input: { readonly linkName: string; readonly selector: string; readonly count: number },
): Promise<{ readonly clickedToShownMs: () => Promise<number> }> {
  await page.evaluate(({ linkName, selector, count }) => {
    const state = window as unknown as { __figure?: Promise<number> };
    state.__figure = new Promise<number>((resolve) => {
      let clickedAt: number | null = null;
      const check = () => {
        if (clickedAt !== null && document.querySelectorAll(selector).length >= count) {
          observer.disconnect();
          resolve(performance.now() - clickedAt);
        }
      };
      const observer = new MutationObserver(check);
      document.addEventListener(
        "click",
        (event) => {
          const link = (event.target as Element | null)?.closest("a");
          if (link?.textContent?.trim() !== linkName) return;
          clickedAt = performance.now();
          observer.observe(document.body, { subtree: true, childList: true, attributes: true });
          check();
        },
        { capture: true },
      );
    });
  }, input);
  return {
    clickedToShownMs: () =>
      page.evaluate(async () => {
        const figure = (window as unknown as { __figure?: Promise<number> }).__figure;
        if (figure === undefined) throw new Error("the page was reloaded: its watch is gone");
        return Math.round(await figure);
      }),
  };
}

/**
 * The transfers page with a full page of sealed transfers: the owner's newest 100 are the seeded
 * confidential transfer and 99 of the 100 public ones the global setup made just before it
 * (bulk-transfers.ts: public transfers are sealed like confidential ones, and cost no proofs). The
 * first page shows every one with its exact amount. Figure printed, not asserted: from the
 * navigation to the page until the 100th amount is shown.
 */
import { v1 } from "./support/admin-client";
import { openNav, signIn, unlock } from "./support/dashboard-steps";
import { expect, test } from "./support/fixtures";
import { watchFromNextNavClick } from "./support/page-timing";

test("Given 100 sealed transfers, When the unlocked holder opens the transfers page, Then every exact amount is shown", async ({
  page,
  world,
  authenticator,
  checkPage,
}) => {
  // Given the owner's first page of transfers, as the API lists it
  const listed = await v1(world.baseUrl, world.owner.apiKey, "GET", "/v1/transfers?limit=100");
  expect(listed.status).toBe(200);
  const known = new Map([
    ...world.bulkTransfers.map((made) => [made.id, made.amount] as const),
    [world.transfer.id, world.transfer.amount] as const,
  ]);
  const expected = Object.fromEntries(
    (listed.body.transfers as { transfer_id: string }[]).map(({ transfer_id }) => [
      transfer_id,
      known.get(transfer_id) ?? "a transfer the suite did not make",
    ]),
  );
  expect(Object.keys(expected)).toHaveLength(100);
  await signIn(page, authenticator);
  await unlock(page, world.owner.secret);

  // When the holder opens the transfers page
  const watch = await watchFromNextNavClick(page, {
    linkName: "Transfers",
    selector: "tbody tr [data-amount]",
    count: 100,
  });
  const navigatedAt = Date.now();
  await openNav(page, "Transfers");
  // Then all 100 show an amount (checked on every animation frame, so the figure is not the
  // polling interval of an `expect`)...
  await page.waitForFunction(() => document.querySelectorAll("tbody tr [data-amount]").length === 100, null, {
    polling: "raf",
    timeout: 30_000,
  });
  const shownMs = Date.now() - navigatedAt;
  // How much of it the API's list answer took (the page's own resource timing)
  const listMs = await page.evaluate(() =>
    Math.round(
      (performance.getEntriesByType("resource") as PerformanceResourceTiming[])
        .filter((entry) => new URL(entry.name).pathname === "/v1/transfers")
        .map((entry) => entry.responseEnd - entry.startTime)
        .at(-1) ?? -1,
    ),
  );
  const pageMs = await watch.clickedToShownMs();
  console.log(
    `figure: 100 amounts shown ${pageMs} ms after the click on "Transfers" by the page's clock (${shownMs} ms as the test driver saw it; the API's list took ${listMs} ms)`,
  );
  await expect(page.locator("tbody tr [data-amount]")).toHaveCount(100);
  // ...each its own transfer's exact amount
  const shown = await page
    .locator("tr[data-transfer-id]")
    .evaluateAll((rows) =>
      rows.map((row) => [
        row.getAttribute("data-transfer-id"),
        row.querySelector("[data-amount]")?.getAttribute("data-amount"),
      ]),
    );
  expect(Object.fromEntries(shown)).toEqual(expected);
  await checkPage("transfers");
});

/**
 * The transfers page with a full page of sealed transfers: 100 transfers the owner's key makes over
 * /v1 (public ones: no proofs to make, and sealed like confidential ones, so the page opens each
 * envelope the same way), then the page shows every one with its exact amount. Figure printed, not
 * asserted: from the navigation to the page until the 100th amount is shown.
 */
import { admin, v1 } from "./support/admin-client";
import { openNav, signIn, unlock } from "./support/dashboard-steps";
import { expect, test } from "./support/fixtures";
import { amountForms, usdgDecimal } from "./support/plaintext-forms";

const TRANSFERS = 100;
const IN_FLIGHT = 8;
/** Distinct 7-digit base-unit amounts (1.000003 .. 1.990006 USDG), none of them elsewhere in the world. */
const unitsOf = (index: number) => 1_000_003n + BigInt(index) * 10_003n;

test("Given 100 sealed transfers, When the unlocked holder opens the transfers page, Then every exact amount is shown", async ({
  page,
  world,
  authenticator,
  recorder,
  checkPage,
}) => {
  test.setTimeout(240_000);
  const plan = Array.from({ length: TRANSFERS }, (_, index) => unitsOf(index));
  recorder.watch(plan.flatMap(amountForms));
  // Given 100 transfers (the owner's public balance is topped up for them)
  await admin(world, "POST", `/admin/accounts/${encodeURIComponent(world.owner.handle)}/fund`, {
    public: "200",
  });
  const madeAt = Date.now();
  const made = new Map<string, string>();
  let next = 0;
  const sender = async () => {
    while (next < plan.length) {
      const units = plan[next++] as bigint;
      const sent = await v1(world.baseUrl, world.owner.apiKey, "POST", "/v1/transfers", {
        to: world.recipient,
        amount: usdgDecimal(units),
        confidential: false,
      });
      expect(sent.status, JSON.stringify(sent.body)).toBe(201);
      made.set(sent.body.transfer_id as string, usdgDecimal(units));
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, sender));
  console.log(`figure: ${TRANSFERS} public transfers created over /v1 in ${Date.now() - madeAt} ms`);

  await signIn(page, authenticator);
  await unlock(page, world.owner.secret);

  // When the holder opens the transfers page
  const navigatedAt = Date.now();
  await openNav(page, "Transfers");
  // Then every one of the 100 shows its exact amount
  await expect(page.locator("tbody tr [data-amount]")).toHaveCount(TRANSFERS, { timeout: 120_000 });
  console.log(
    `figure: ${TRANSFERS} amounts shown ${Date.now() - navigatedAt} ms after opening the transfers page`,
  );
  for (const [id, amount] of made) {
    await expect(page.locator(`tr[data-transfer-id="${id}"] [data-amount]`)).toHaveAttribute(
      "data-amount",
      amount,
    );
  }
  await checkPage("transfers");
});

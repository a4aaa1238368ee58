/**
 * Signed in and unlocked, the holder reads what only their secret opens: the confidential balance
 * (decrypted from the token account's on-chain ciphertexts and proven in the page) and the exact
 * amount and memo of a confidential transfer sent over /v1 before the browser came. Neither
 * crosses the network in plaintext (the recorder fixture checks every request and response). The
 * send and agents pages, which no other test needs, are screenshot and scanned here.
 */
import { openNav, unlock } from "./support/dashboard-steps";
import { expect, test } from "./support/fixtures";

test("Given a signed-in holder, When they unlock with their secret, Then the balance and a transfer's exact amount and memo are shown", async ({
  signedInPage: page,
  world,
  checkPage,
}) => {
  const row = page.locator(`tr[data-transfer-id="${world.transfer.id}"]`);
  // locked: the page shows the transfer but no amount
  await expect(row).toBeVisible();
  await expect(row.locator("[data-amount]")).toHaveCount(0);

  await unlock(page, world.owner.secret);

  const balances = page.getByRole("region", { name: "Balances" });
  await expect(balances.locator(`[data-amount="${world.owner.confidentialBalance}"]`)).toHaveText(
    `${world.owner.confidentialBalance} USDG`,
  );
  await expect(row.locator(`[data-amount="${world.transfer.amount}"]`)).toHaveText(
    `${world.transfer.amount} USDG`,
  );
  await expect(row).toContainText(world.transfer.memo);
  // Its signature opens on the explorer of the cluster the service named: here the localnet, read
  // through its own RPC URL
  const explorerLink = row.getByRole("link", { name: /opens the explorer/ });
  await expect(explorerLink).toHaveAttribute(
    "href",
    new RegExp(
      `^https://explorer\\.solana\\.com/tx/[1-9A-HJ-NP-Za-km-z]{64,88}\\?cluster=custom&customUrl=${encodeURIComponent(world.localnetRpcUrl).replace(/[.]/g, "\\.")}$`,
    ),
  );
  await checkPage("overview");

  // And the two pages no other test visits render for the unlocked holder
  await openNav(page, "Send");
  await expect(page.getByRole("heading", { level: 1, name: "Send" })).toBeVisible();
  await checkPage("send");
  await openNav(page, "Agents");
  await expect(page.getByText(world.agent.handle).first()).toBeVisible();
  await checkPage("agents");
});

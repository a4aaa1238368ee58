/**
 * A transfer whose funds-moving transaction landed at `processed` and was then dropped (its fork
 * abandoned) must not stay `pending`: once the cluster has not known its signature for longer than
 * a blockhash lives, it is `failed` (`dropped`) with one `transfer.failed`. A `submitted` transfer
 * whose signature the cluster knows is left to the indexer. The rows are written as the request
 * leaves them (no cluster can be made to drop a processed transaction on demand); the background
 * job (api/src/transfers/recover-dropped.ts) does the rest.
 */
import { randomBytes } from "node:crypto";
import { insertSubmittingTransfer, markSubmitted } from "@cpay/ledger";
import { newId } from "@cpay/ledger/ids";
import { generateKeyPairSigner, getBase58Decoder } from "@solana/kit";
import { describe, expect, it } from "vitest";
import { eventsOf } from "../api/support/agents";
import { apiSuite } from "../support/api-suite";

const given = apiSuite({
  world: { env: { TRANSFER_RECONCILE_AFTER_SECONDS: "10" } },
  accounts: ["payer"],
});

/** A `submitted` row written an hour ago with `signature` as its funds-moving transaction. */
async function submittedRow(signature: string): Promise<string> {
  const id = newId("tr");
  const { service } = given.world;
  await insertSubmittingTransfer(service.context, {
    id,
    accountId: given.payer.account.id,
    apiKeyId: given.payer.key.id,
    fromHandle: given.payer.account.handle,
    to: "@nobody",
    recipientAddress: (await generateKeyPairSigner()).address,
    sealedDetails: null,
    asset: "USDG",
    confidential: false,
    usageIncrement: null,
    createdAt: new Date(Date.now() - 3_600_000).toISOString(),
  });
  await markSubmitted(service.context, id, {
    signature,
    signatures: [signature],
    usage: { apiKeyId: given.payer.key.id, increment: null },
  });
  return id;
}

describe("a submitted transfer whose transaction was dropped", () => {
  it("Given a signature the cluster never knew and one it knows, When the job has watched past the threshold, Then the first is failed once (dropped) and the second untouched", async () => {
    const dropped = await submittedRow(getBase58Decoder().decode(randomBytes(64)));
    const knownSignature = await given.world.chain.requestAirdrop(
      (await generateKeyPairSigner()).address,
      1_000_000n,
    );
    const known = await submittedRow(knownSignature);

    const deadline = Date.now() + 45_000;
    while ((await given.world.transferRow(dropped)).status === "pending") {
      if (Date.now() > deadline) throw new Error("the dropped transfer stayed pending");
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const row = await given.world.transferRow(dropped);
    expect(row).toMatchObject({ status: "failed", phase: "settled", failureCode: "dropped" });
    expect(await eventsOf(given.world, "transfer.failed", dropped)).toHaveLength(1);
    expect(await eventsOf(given.world, "transfer.initiated", dropped)).toHaveLength(1);

    expect(await given.world.transferRow(known)).toMatchObject({ status: "pending", phase: "submitted" });
    const view = await given.world.fetch(`/v1/transfers/${dropped}`, { key: given.payer.key.value });
    expect(((await view.json()) as { status: string }).status).toBe("failed");
  });
});

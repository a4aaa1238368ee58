import { createHash } from "node:crypto";
import {
  AccountRole,
  type Address,
  address,
  generateKeyPairSigner,
  getBase64EncodedWireTransaction,
  getProgramDerivedAddress,
  getSignatureFromTransaction,
  type Instruction,
  type KeyPairSigner,
  sendAndConfirmTransactionFactory,
} from "@solana/kit";
import { describe, expect, it } from "vitest";
import { findProgramDataAddress } from "../cluster/index";
import { memoInstruction, memoProgramElf } from "../cluster/test-helpers";
import { openRawSocket } from "./raw-socket";
import {
  fundedSigner,
  signedTransaction,
  startTestLocalnet,
  type TestLocalnet,
  transfer,
  useTestLocalnet,
} from "./test-support";

const SYSTEM_PROGRAM = address("11111111111111111111111111111111");

const net = useTestLocalnet();

/** Collects notifications from a kit subscription until `done` accepts one (or the timeout). */
async function firstMatching<T>(
  iterable: AsyncIterable<T>,
  done: (item: T) => boolean,
  abort: AbortController,
  timeoutMs = 10_000,
): Promise<T> {
  const timer = setTimeout(() => abort.abort(new Error("timed out waiting for a notification")), timeoutMs);
  try {
    for await (const item of iterable) if (done(item)) return item;
    throw new Error("subscription ended without a matching notification");
  } finally {
    clearTimeout(timer);
    abort.abort();
  }
}

/**
 * Subscribes to the logs mentioning `mention`, then sends and confirms `instructions` paid by `payer`:
 * the transaction's signature and its logs notification.
 */
async function logsOfTransaction(
  net: TestLocalnet,
  mention: Address,
  payer: KeyPairSigner,
  instructions: readonly Instruction[],
) {
  const abort = new AbortController();
  const logs = await net.rpcSubscriptions
    .logsNotifications({ mentions: [mention] }, { commitment: "confirmed" })
    .subscribe({ abortSignal: abort.signal });
  const transaction = await signedTransaction(net, payer, instructions);
  const signature = getSignatureFromTransaction(transaction);
  const [notification] = await Promise.all([
    firstMatching(logs, (item) => item.value.signature === signature, abort),
    sendAndConfirmTransactionFactory(net)(transaction, { commitment: "confirmed" }),
  ]);
  return { signature, notification };
}

/** agent-policy `config_initialize` (programs/agent-policy/src/instructions/config_initialize.rs). */
async function configInitialize(programId: string, admin: string) {
  const program = address(programId);
  const [config] = await getProgramDerivedAddress({ programAddress: program, seeds: ["config"] });
  const programData = await findProgramDataAddress(program);
  const discriminator = createHash("sha256").update("global:config_initialize").digest().subarray(0, 8);
  const registrar = new Uint8Array(32).fill(7);
  return {
    programAddress: program,
    accounts: [
      { address: config, role: AccountRole.WRITABLE },
      { address: address(admin), role: AccountRole.WRITABLE_SIGNER },
      { address: programData, role: AccountRole.READONLY },
      { address: SYSTEM_PROGRAM, role: AccountRole.READONLY },
    ],
    data: new Uint8Array([...discriminator, ...registrar]),
  } satisfies Instruction;
}

describe("localnet PubSub with @solana/kit", () => {
  it("Given logsSubscribe mentioning the System program, When a transfer confirms, Then its logs are notified", async () => {
    const payer = await fundedSigner(net, 1n);
    const { signature, notification } = await logsOfTransaction(net, SYSTEM_PROGRAM, payer, [
      transfer(payer, (await generateKeyPairSigner()).address, 1_000_000n),
    ]);

    expect(notification.value).toEqual({
      signature,
      err: null,
      logs: [`Program ${SYSTEM_PROGRAM} invoke [1]`, `Program ${SYSTEM_PROGRAM} success`],
    });
    expect(notification.context.slot).toBeTypeOf("bigint");
  });

  it("Given logsSubscribe mentioning the agent-policy program, When config_initialize runs, Then the program's logs are notified", async () => {
    const admin = await net.cluster.keys.programUpgradeAuthority.toSigner();
    const { notification } = await logsOfTransaction(net, address(net.cluster.programId), admin, [
      await configInitialize(net.cluster.programId, admin.address),
    ]);

    expect(notification.value.err).toBeNull();
    expect(notification.value.logs[0]).toBe(`Program ${net.cluster.programId} invoke [1]`);
    // Anchor events are emitted as `Program data: <base64>` lines.
    expect(notification.value.logs.some((line) => line.startsWith("Program data: "))).toBe(true);
  });

  it("Given the cluster's program id deployed with a stand-in ELF (SPL Memo), When it runs, Then logsSubscribe on the program id is notified", async () => {
    // Independent of target/deploy/agent_policy.so: the same upgradeable-loader deploy under the
    // same program id, so the `mentions: [programId]` path is covered even before the program is built.
    const standIn = await startTestLocalnet({ programBytes: memoProgramElf() });
    try {
      const programId = address(standIn.cluster.programId);
      const payer = await fundedSigner(standIn, 1n);
      const { notification } = await logsOfTransaction(standIn, programId, payer, [
        memoInstruction(programId, "cpay"),
      ]);

      expect(notification.value.err).toBeNull();
      expect(notification.value.logs[0]).toBe(`Program ${programId} invoke [1]`);
      expect(notification.value.logs).toContain("Program log: Memo (len 4)");
    } finally {
      await standIn.close();
    }
  });

  it("Given signatureSubscribe before sending, When the transaction confirms, Then one notification arrives and the subscription is gone", async () => {
    const payer = await fundedSigner(net, 1n);
    const transaction = await signedTransaction(net, payer, [
      transfer(payer, (await generateKeyPairSigner()).address, 1_000_000n),
    ]);
    const signature = getSignatureFromTransaction(transaction);
    const socket = await openRawSocket(net.localnet.wsUrl);
    try {
      const subscribed = await socket.request("signatureSubscribe", [signature, { commitment: "confirmed" }]);
      const id = subscribed.result as number;
      expect(id).toBeTypeOf("number");

      await net.rpc
        .sendTransaction(getBase64EncodedWireTransaction(transaction), { encoding: "base64" })
        .send();
      const notification = await socket.next((message) => message.method === "signatureNotification");

      expect(notification.params).toEqual({
        result: { context: { slot: expect.any(Number) }, value: { err: null } },
        subscription: id,
      });
      const status = await net.rpc.getSignatureStatuses([signature]).send();
      expect(status.value[0]?.confirmationStatus).not.toBe("processed");
      // Fired once, then removed server-side, like Solana: unsubscribing now names an unknown id.
      const unsubscribe = await socket.request("signatureUnsubscribe", [id]);
      expect(unsubscribe.error).toEqual({ code: -32602, message: "Invalid subscription id." });
    } finally {
      socket.close();
    }
  });

  it("Given a transaction that already confirmed, When kit subscribes to its signature, Then the notification still arrives", async () => {
    const payer = await fundedSigner(net, 1n);
    const transaction = await signedTransaction(net, payer, [
      transfer(payer, (await generateKeyPairSigner()).address, 1_000_000n),
    ]);
    await sendAndConfirmTransactionFactory(net)(transaction, { commitment: "confirmed" });
    const abort = new AbortController();

    const notifications = await net.rpcSubscriptions
      .signatureNotifications(getSignatureFromTransaction(transaction), { commitment: "confirmed" })
      .subscribe({ abortSignal: abort.signal });
    const notification = await firstMatching(notifications, () => true, abort);

    expect(notification.value).toEqual({ err: null });
  });

  it("Given slotSubscribe, When the clock ticks, Then consecutive slots arrive with their parent and root", async () => {
    const abort = new AbortController();
    const slots = await net.rpcSubscriptions.slotNotifications().subscribe({ abortSignal: abort.signal });
    const seen: bigint[] = [];
    const last = await firstMatching(
      slots,
      (item) => {
        seen.push(item.slot);
        return seen.length === 3;
      },
      abort,
    );
    expect(seen[1]).toBe((seen[0] as bigint) + 1n);
    expect(last.parent).toBe(last.slot - 1n);
    expect(last.root).toBeLessThanOrEqual(last.slot);
  });

  it("Given accountSubscribe on a new address, When a transfer credits it, Then the new account state is notified", async () => {
    const payer = await fundedSigner(net, 1n);
    const recipient = (await generateKeyPairSigner()).address;
    const abort = new AbortController();
    const updates = await net.rpcSubscriptions
      .accountNotifications(recipient, { commitment: "confirmed", encoding: "base64" })
      .subscribe({ abortSignal: abort.signal });
    const transaction = await signedTransaction(net, payer, [transfer(payer, recipient, 2_500_000n)]);

    const [update] = await Promise.all([
      firstMatching(updates, () => true, abort),
      sendAndConfirmTransactionFactory(net)(transaction, { commitment: "confirmed" }),
    ]);

    expect(update.value).toMatchObject({ lamports: 2_500_000n, owner: SYSTEM_PROGRAM, data: ["", "base64"] });
  });
});

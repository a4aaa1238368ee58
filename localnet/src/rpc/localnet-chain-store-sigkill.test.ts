/**
 * The localnet as its own process (`localnet/src/main.ts`, what `npm run localnet` runs) on a
 * localnet directory, killed with SIGKILL in the middle of a stream of transfers sent over JSON-RPC,
 * then started again on the same directory. Every transfer whose sendTransaction was answered must
 * be on the restarted chain with its effect; any other may be there or not, but never half (a
 * status without the balance, or the balance without the status); and the chain keeps working.
 * The kill point varies with a seed, printed so a failure can be replayed (`SIGKILL_SEED=<n>`).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { signTransactionToWire } from "@cpay/sdk/chain";
import { type Address, generateKeyPairSigner, type KeyPairSigner, lamports } from "@solana/kit";
import { getTransferSolInstruction } from "@solana-program/system";
import { afterAll, describe, expect, it } from "vitest";

const SEED = Number(process.env.SIGKILL_SEED ?? Math.floor(Math.random() * 2 ** 31));
const REPO = new URL("../../..", import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), "cpay-localnet-chain-store-"));
const children: ChildProcess[] = [];

afterAll(() => {
  for (const child of children)
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  rmSync(dir, { recursive: true, force: true });
});

interface Started {
  readonly child: ChildProcess;
  readonly rpcUrl: string;
  readonly output: string[];
}

/** Starts the localnet process on the test's chain store and waits for it to print its RPC URL. */
async function startLocalnetProcess(): Promise<Started> {
  const child = spawn(process.execPath, ["--import", "tsx", "localnet/src/main.ts"], {
    cwd: REPO,
    env: {
      ...process.env,
      LOCALNET_RPC_PORT: "0",
      LOCALNET_WS_PORT: "0",
      LOCALNET_SLOT_MS: "20",
      LOCALNET_DIR: dir,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  const output: string[] = [];
  const rpcUrl = await new Promise<string>((resolve, reject) => {
    child.stderr?.on("data", (chunk) => output.push(String(chunk)));
    child.stdout?.on("data", (chunk) => {
      output.push(String(chunk));
      const url = /JSON-RPC URL:\s+(\S+)/.exec(output.join(""))?.[1];
      if (url !== undefined) resolve(url);
    });
    child.once("exit", (code) =>
      reject(new Error(`localnet exited (${code}) before serving:\n${output.join("")}`)),
    );
  });
  return { child, rpcUrl, output };
}

async function rpc<T>(url: string, method: string, params: unknown[] = []): Promise<T> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  const body = (await response.json()) as { result?: T; error?: { message: string } };
  if (body.error !== undefined) throw new Error(`${method}: ${body.error.message}`);
  return body.result as T;
}

async function transferWire(url: string, from: KeyPairSigner, to: Address, amount: bigint): Promise<string> {
  const { value } = await rpc<{ value: { blockhash: string; lastValidBlockHeight: number } }>(
    url,
    "getLatestBlockhash",
    [{ commitment: "processed" }],
  );
  const { wire } = await signTransactionToWire({
    feePayer: from,
    blockhash: value.blockhash,
    instructions: [getTransferSolInstruction({ source: from, destination: to, amount: lamports(amount) })],
  });
  return Buffer.from(wire).toString("base64");
}

async function balance(url: string, account: Address): Promise<bigint> {
  const { value } = await rpc<{ value: number }>(url, "getBalance", [account, { commitment: "processed" }]);
  return BigInt(value);
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once("exit", () => resolve()));
}

describe("the localnet process on a chain store, under SIGKILL", () => {
  it("Given transfers streaming over RPC, When the process is killed and restarted on its chain store, Then every answered transfer is there with its effect and the chain goes on", async () => {
    console.log(`localnet chain store SIGKILL seed: ${SEED}`);
    const first = await startLocalnetProcess();
    const genesisHash = await rpc<string>(first.rpcUrl, "getGenesisHash");
    const payer = await generateKeyPairSigner();
    const airdrop = await rpc<string>(first.rpcUrl, "requestAirdrop", [payer.address, 1_000_000_000_000]);
    expect(airdrop).toBeTypeOf("string");

    // Four senders stream transfers of distinct amounts to fresh recipients; the kill comes after
    // 20 to 60 answers, while sends are in flight.
    const killAfter = 20 + (SEED % 41);
    const sent: { signature: string | null; to: Address; amount: bigint }[] = [];
    let answered = 0;
    let lastAnsweredSlot = 0n;
    let killed = false;
    const sender = async (lane: number) => {
      for (let i = 0; !killed; i++) {
        const to = (await generateKeyPairSigner()).address;
        const entry = {
          signature: null as string | null,
          to,
          amount: 1_000_000n + BigInt(lane * 100_000 + i),
        };
        sent.push(entry);
        try {
          const wire = await transferWire(first.rpcUrl, payer, to, entry.amount);
          entry.signature = await rpc<string>(first.rpcUrl, "sendTransaction", [
            wire,
            { encoding: "base64" },
          ]);
          answered += 1;
          lastAnsweredSlot = BigInt(
            await rpc<number>(first.rpcUrl, "getSlot", [{ commitment: "processed" }]),
          );
        } catch (error) {
          if (!killed) throw error;
        }
        if (answered >= killAfter && !killed) {
          killed = true;
          first.child.kill("SIGKILL");
        }
      }
    };
    await Promise.all([0, 1, 2, 3].map(sender));
    await exited(first.child);
    expect(first.child.signalCode).toBe("SIGKILL");

    // When the localnet starts again on the same chain store
    const second = await startLocalnetProcess();
    expect(second.output.join("")).toContain("(continued");

    // Then it is the same chain, not behind what was answered
    expect(await rpc<string>(second.rpcUrl, "getGenesisHash")).toBe(genesisHash);
    expect(
      BigInt(await rpc<number>(second.rpcUrl, "getSlot", [{ commitment: "processed" }])),
    ).toBeGreaterThanOrEqual(lastAnsweredSlot);
    const statuses = await rpc<{ value: ({ err: unknown } | null)[] }>(
      second.rpcUrl,
      "getSignatureStatuses",
      [
        sent.map(
          (entry) => entry.signature ?? "1111111111111111111111111111111111111111111111111111111111111111",
        ),
        { searchTransactionHistory: true },
      ],
    );
    for (const [index, entry] of sent.entries()) {
      const status = statuses.value[index];
      const received = await balance(second.rpcUrl, entry.to);
      if (entry.signature !== null) {
        // Every answered transfer landed, succeeded and moved its lamports
        expect(status, entry.signature).not.toBeNull();
        expect(status?.err).toBeNull();
        expect(received).toBe(entry.amount);
      } else {
        // An unanswered one may have landed or not, but wholly or not at all
        expect([0n, entry.amount]).toContain(received);
      }
    }
    expect(answered).toBeGreaterThanOrEqual(killAfter);

    // And its history has the transactions, and the deployed program is still there
    const lastAnswered = sent.filter((entry) => entry.signature !== null).at(-1)?.signature;
    const landed = await rpc<{ meta: { err: unknown } } | null>(second.rpcUrl, "getTransaction", [
      lastAnswered,
      { encoding: "base64", commitment: "confirmed", maxSupportedTransactionVersion: 0 },
    ]);
    expect(landed?.meta.err).toBeNull();
    const programId = /program id:\s+(\S+)/.exec(second.output.join(""))?.[1];
    const program = await rpc<{ value: { executable: boolean } | null }>(second.rpcUrl, "getAccountInfo", [
      programId,
      { encoding: "base64" },
    ]);
    expect(program.value?.executable).toBe(true);

    // And the chain keeps working: a new transfer lands and moves its lamports
    const to = (await generateKeyPairSigner()).address;
    await rpc<string>(second.rpcUrl, "sendTransaction", [
      await transferWire(second.rpcUrl, payer, to, 4_242_000n),
      { encoding: "base64" },
    ]);
    expect(await balance(second.rpcUrl, to)).toBe(4_242_000n);

    // And it shuts down cleanly on SIGTERM
    second.child.kill("SIGTERM");
    await exited(second.child);
    expect(second.child.exitCode).toBe(0);
  }, 120_000);
});

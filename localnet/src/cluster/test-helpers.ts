/**
 * Test-only helpers for the cluster suites: build transactions the way a client does (kit signers,
 * wire bytes), and a small valid SBF program to deploy while the agent-policy .so may not exist yet.
 * Not exported from the package.
 */

import { signTransactionToWire } from "@cpay/sdk/chain";
import {
  type Address,
  address,
  generateKeyPairSigner,
  type Instruction,
  type KeyPairSigner,
} from "@solana/kit";
import { getTransferSolInstruction } from "@solana-program/system";
import { LiteSVM } from "litesvm";
import type { ClusterPort } from "./cluster-port";

export const MEMO_PROGRAM = address("MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr");

/**
 * SPL Memo v4's ELF, read from the copy LiteSVM ships and loads with BPF Loader v2 (the account data
 * is the .so itself): a real, small (2.3 KB) SBF program obtained locally.
 */
export function memoProgramElf(): Uint8Array {
  const account = new LiteSVM().getAccount(MEMO_PROGRAM);
  if (!account.exists) throw new Error("litesvm no longer ships SPL Memo");
  return Uint8Array.from(account.data);
}

/** A memo instruction for `program` (a memo program deployed anywhere). */
export function memoInstruction(program: Address, text: string): Instruction {
  return { programAddress: program, data: new TextEncoder().encode(text) };
}

/** Signs `instructions` with kit (v0 message, fee payer first) and returns the wire bytes. */
export async function buildWire(input: {
  readonly payer: KeyPairSigner;
  readonly instructions: readonly Instruction[];
  readonly blockhash: string;
}): Promise<Uint8Array> {
  const { wire } = await signTransactionToWire({
    feePayer: input.payer,
    instructions: input.instructions,
    blockhash: input.blockhash,
  });
  return wire;
}

/** A fresh keypair funded by the cluster's faucet. */
export async function fundedSigner(cluster: ClusterPort, lamports = 10_000_000_000n): Promise<KeyPairSigner> {
  const signer = await generateKeyPairSigner();
  cluster.requestAirdrop(signer.address, lamports);
  return signer;
}

/** A signed System transfer on the cluster's latest blockhash (or `blockhash`). */
export function transferWire(
  cluster: ClusterPort,
  from: KeyPairSigner,
  to: Address,
  lamports: bigint,
  blockhash = cluster.getLatestBlockhash().blockhash,
): Promise<Uint8Array> {
  return buildWire({
    payer: from,
    blockhash,
    instructions: [getTransferSolInstruction({ source: from, destination: to, amount: lamports })],
  });
}

/**
 * The localnet faucet: the one account funded in genesis (like a test validator's faucet keypair);
 * every other lamport on the cluster arrives through an airdrop, which is a real System transfer
 * signed by the faucet, so it has a signature, a fee and a place in history.
 */

import type { LocalnetKey } from "@cpay/sdk/chain";
import { type Address, address, createNoopSigner, lamports } from "@solana/kit";
import { getTransferSolInstruction } from "@solana-program/system";
import type { LiteSVM } from "litesvm";
import type { TransactionRecord } from "./cluster-port";
import type { LocalTarget } from "./local-transaction";

/** 500M SOL: far more than any dev session spends. */
export const FAUCET_GENESIS_LAMPORTS = 500_000_000n * 1_000_000_000n;

/** Writes the faucet's genesis balance (the only state not created by a transaction). */
export function fundFaucetInGenesis(
  svm: LiteSVM,
  faucet: LocalnetKey,
  amount = FAUCET_GENESIS_LAMPORTS,
): void {
  svm.setAccount({
    address: faucet.address,
    lamports: lamports(amount),
    programAddress: address("11111111111111111111111111111111"),
    executable: false,
    data: new Uint8Array(0),
    space: 0n,
  });
}

/**
 * Sends `amount` lamports from the faucet to `to`. Preflighted: a transfer that would fail (e.g.
 * below the rent-exempt minimum for a new account) throws SubmissionRejected and lands nothing.
 */
export function airdrop(
  target: LocalTarget,
  faucet: LocalnetKey,
  to: string,
  amount: bigint,
): TransactionRecord {
  return target.submit(
    {
      feePayer: faucet,
      instructions: [
        getTransferSolInstruction({
          source: createNoopSigner(faucet.address),
          destination: to as Address,
          amount,
        }),
      ],
    },
    "airdrop",
  );
}

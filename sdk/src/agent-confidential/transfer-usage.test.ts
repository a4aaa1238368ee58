import { type Address, generateKeyPairSigner, getAddressEncoder } from "@solana/kit";
import { ZK_ELGAMAL_PROOF_PROGRAM_ADDRESS } from "@solana-program/zk-elgamal-proof";
import { describe, expect, it } from "vitest";
import type { ChainPort } from "../chain/chain-port";
import type { AccountRecord } from "../chain/chain-types";
import {
  decryptEncryptedTotal,
  encryptedTotalFromBase64,
  encryptedTotalToBase64,
  sumEncryptedTotals,
} from "../confidential/encrypted-total";
import { randomKeysets } from "../confidential/keys.test-support";
import { encryptTransferAmount } from "../confidential/transfer-proofs";
import { VALIDITY_PROOF_CONTEXT_LENGTH } from "./limit-ciphertexts";
import { encryptedTotalOfTransfer, readTransferValidityContext } from "./transfer-usage";

const [source, recipient, auditor] = randomKeysets(3);
const agentPda = (await generateKeyPairSigner()).address;
const CONTEXT_ADDRESS = (await generateKeyPairSigner()).address;

/** The context account the ZK program writes for a transfer of `amount`, encrypted as the SDK's transfers are. */
function contextAccount(
  amount: bigint,
  overrides: Partial<{
    authority: Address;
    proofType: number;
    owner: string;
    sourceKeys: typeof source;
    extra: number;
  }> = {},
): AccountRecord {
  const { validityContext } = encryptTransferAmount({
    keys: overrides.sourceKeys ?? source,
    amount,
    recipientPubkey: recipient.elgamalPubkey,
    auditorPubkey: auditor.elgamalPubkey,
  });
  const data = new Uint8Array(33 + VALIDITY_PROOF_CONTEXT_LENGTH + (overrides.extra ?? 0));
  data.set(getAddressEncoder().encode(overrides.authority ?? agentPda), 0);
  data[32] = overrides.proofType ?? 12;
  data.set(validityContext, 33);
  return {
    address: CONTEXT_ADDRESS,
    lamports: 1n,
    owner: overrides.owner ?? ZK_ELGAMAL_PROOF_PROGRAM_ADDRESS,
    executable: false,
    rentEpoch: 0n,
    data,
  };
}

function chainWith(account: AccountRecord | null): ChainPort {
  return {
    getAccount: async (address: string) => (address === CONTEXT_ADDRESS ? account : null),
  } as unknown as ChainPort;
}

const read = (account: AccountRecord | null) =>
  readTransferValidityContext(chainWith(account), CONTEXT_ADDRESS, {
    authority: agentPda,
    sourcePubkey: source.elgamalPubkey,
  });

describe("a confidential transfer's usage increment", () => {
  it("Given the validity context of a transfer, When it is read as an encrypted total, Then only the source's key decrypts it, to the amount, and it adds to a running total", async () => {
    const amount = 7_123_456n; // 7.123456 USDG: both halves non-zero
    const context = await read(contextAccount(amount));
    expect(context).not.toBeNull();
    const increment = encryptedTotalOfTransfer(context as NonNullable<typeof context>);
    expect(decryptEncryptedTotal(increment, source)).toBe(amount);
    const other = encryptedTotalOfTransfer(
      (await read(contextAccount(250_000n))) as NonNullable<typeof context>,
    );
    const total = encryptedTotalFromBase64(encryptedTotalToBase64(sumEncryptedTotals(increment, other)));
    expect(decryptEncryptedTotal(total, source)).toBe(amount + 250_000n);
    expect(() => decryptEncryptedTotal(increment, recipient)).toThrow();
  });

  it.each([
    ["missing", null],
    ["owned by another program", contextAccount(5n, { owner: agentPda })],
    ["of another proof type", contextAccount(5n, { proofType: 3 })],
    ["of another length", contextAccount(5n, { extra: 1 })],
    ["of another authority", contextAccount(5n, { authority: CONTEXT_ADDRESS })],
    ["under another source key", contextAccount(5n, { sourceKeys: recipient })],
  ])("Given a context account %s, When read, Then it is not taken (null)", async (_, account) => {
    expect(await read(account)).toBeNull();
  });
});

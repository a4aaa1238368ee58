/**
 * x402 `exact` payments a plain wallet (a keypair) makes, built here instruction by instruction so a
 * suite can present the facilitator with the good one and with each bad one: the layout
 * `@x402/svm`'s client makes — SetComputeUnitLimit, SetComputeUnitPrice, TransferChecked of the
 * payer's USDG into `payTo`'s token account, the memo — partially signed by the payer, the fee
 * payer's slot left empty. `change` rewrites the instruction list before signing.
 */
import type { ChainPort } from "@cpay/sdk/chain";
import {
  type Address,
  address,
  appendTransactionMessageInstructions,
  createTransactionMessage,
  getBase64EncodedWireTransaction,
  type Instruction,
  type KeyPairSigner,
  partiallySignTransactionMessageWithSigners,
  pipe,
  setTransactionMessageFeePayer,
  setTransactionMessageLifetimeUsingBlockhash,
} from "@solana/kit";
import {
  findAssociatedTokenPda,
  getTransferCheckedInstruction,
  TOKEN_2022_PROGRAM_ADDRESS,
} from "@solana-program/token-2022";
import type { PaymentPayload, PaymentRequirements } from "@x402/core/types";
import { MEMO_PROGRAM_ADDRESS } from "@x402/svm";

const COMPUTE_BUDGET = address("ComputeBudget111111111111111111111111111111");
const USDG_DECIMALS = 6;

/** SetComputeUnitLimit (`units`) and SetComputeUnitPrice (`microLamports`), as instructions 0 and 1. */
export function computeBudget(units = 20_000, microLamports = 1n): Instruction[] {
  const limit = new Uint8Array(5);
  limit[0] = 2;
  new DataView(limit.buffer).setUint32(1, units, true);
  const price = new Uint8Array(9);
  price[0] = 3;
  new DataView(price.buffer).setBigUint64(1, microLamports, true);
  return [
    { programAddress: COMPUTE_BUDGET, data: limit },
    { programAddress: COMPUTE_BUDGET, data: price },
  ];
}

/** A Memo instruction with `text`, naming `signers` (none by default). */
export function memo(text: string, signers: readonly Address[] = []): Instruction {
  return {
    programAddress: MEMO_PROGRAM_ADDRESS as Address,
    accounts: signers.map((signer) => ({ address: signer, role: 2 })),
    data: new TextEncoder().encode(text),
  };
}

/** TransferChecked of `amount` of `mint` from `from`'s token account to `to`'s. */
export async function transferChecked(input: {
  readonly from: KeyPairSigner | Address;
  readonly to: string;
  readonly mint: string;
  readonly amount: bigint;
}): Promise<Instruction> {
  const owner = typeof input.from === "string" ? input.from : input.from.address;
  const [source] = await findAssociatedTokenPda({
    owner,
    mint: address(input.mint),
    tokenProgram: TOKEN_2022_PROGRAM_ADDRESS,
  });
  const [destination] = await findAssociatedTokenPda({
    owner: address(input.to),
    mint: address(input.mint),
    tokenProgram: TOKEN_2022_PROGRAM_ADDRESS,
  });
  return getTransferCheckedInstruction({
    source,
    mint: address(input.mint),
    destination,
    authority: input.from,
    amount: input.amount,
    decimals: USDG_DECIMALS,
  }) as Instruction;
}

/** The instructions `@x402/svm`'s client makes: compute limit, compute price, the transfer, the memo. */
export type StandardPayment = [
  limit: Instruction,
  price: Instruction,
  transfer: Instruction,
  memo: Instruction,
];

/** The payload paying `requirements` from `payer`, its instructions first passed through `change`. */
export async function keypairPayment(input: {
  readonly chain: ChainPort;
  readonly payer: KeyPairSigner;
  readonly requirements: PaymentRequirements;
  readonly change?: (standard: StandardPayment) => Instruction[] | Promise<Instruction[]>;
  /** Default: the cluster's latest. */
  readonly blockhash?: { readonly blockhash: string; readonly lastValidBlockHeight: bigint };
}): Promise<PaymentPayload> {
  const { requirements, payer } = input;
  const [limit, price] = computeBudget() as [Instruction, Instruction];
  const standard: StandardPayment = [
    limit,
    price,
    await transferChecked({
      from: payer,
      to: requirements.payTo,
      mint: requirements.asset,
      amount: BigInt(requirements.amount),
    }),
    memo(typeof requirements.extra?.memo === "string" ? requirements.extra.memo : "a nonce"),
  ];
  const instructions = input.change === undefined ? standard : await input.change(standard);
  const lifetime = input.blockhash ?? (await input.chain.getLatestBlockhash());
  const message = pipe(
    createTransactionMessage({ version: 0 }),
    (m) => setTransactionMessageFeePayer(address(requirements.extra?.feePayer as string), m),
    (m) =>
      setTransactionMessageLifetimeUsingBlockhash(
        {
          blockhash: lifetime.blockhash as Parameters<
            typeof setTransactionMessageLifetimeUsingBlockhash
          >[0]["blockhash"],
          lastValidBlockHeight: lifetime.lastValidBlockHeight,
        },
        m,
      ),
    (m) => appendTransactionMessageInstructions(instructions, m),
  );
  const signed = await partiallySignTransactionMessageWithSigners(message);
  return {
    x402Version: 2,
    accepted: requirements,
    payload: { transaction: getBase64EncodedWireTransaction(signed) },
  };
}

import {
  type AccountMeta,
  AccountRole,
  type AccountSignerMeta,
  type Address,
  address,
  appendTransactionMessageInstructions,
  createTransactionMessage,
  generateKeyPairSigner,
  getAddressEncoder,
  getProgramDerivedAddress,
  type Instruction,
  type KeyPairSigner,
  lamports,
  mergeBytes,
  pipe,
  setTransactionMessageFeePayerSigner,
  signTransactionMessageWithSigners,
} from "@solana/kit";
import { FailedTransactionMetadata, LiteSVM } from "litesvm";

/**
 * Test-only helpers to run linked programs in LiteSVM. `addProgram` skips the loader's ELF
 * verification, so {@link deployVerified} also deploys through the BPF Upgradeable Loader
 * (InitializeBuffer, Write, DeployWithMaxDataLen) — the path that runs the SBPF verifier and
 * the strict relocation checks (`reject_broken_elfs`) a real cluster applies.
 */
const UPGRADEABLE_LOADER = address("BPFLoaderUpgradeab1e11111111111111111111111");
const SYSTEM_PROGRAM = address("11111111111111111111111111111111");
const RENT_SYSVAR = address("SysvarRent111111111111111111111111111111111");
const CLOCK_SYSVAR = address("SysvarC1ock11111111111111111111111111111111");
/** UpgradeableLoaderState sizes: Buffer header, Program account. */
const BUFFER_HEADER = 37;
const PROGRAM_ACCOUNT_SIZE = 36;
/** Bytes of program per Write transaction (stays well under the 1232-byte packet limit). */
const WRITE_CHUNK = 900;

/** An instruction whose signer accounts carry their signer, so the transaction signs itself. */
export type SignedInstruction = Instruction<string, readonly (AccountMeta | AccountSignerMeta)[]>;

export interface Harness {
  svm: LiteSVM;
  payer: KeyPairSigner;
}

export interface InvokeResult {
  ok: boolean;
  logs: string[];
  computeUnits: bigint;
  error: string | undefined;
}

export async function createHarness(): Promise<Harness> {
  const svm = new LiteSVM();
  const payer = await generateKeyPairSigner();
  svm.airdrop(payer.address, lamports(100_000_000_000n));
  return { svm, payer };
}

/** Sends one transaction with these instructions, signed by the payer (and any signer metas). */
export async function send(harness: Harness, instructions: SignedInstruction[]): Promise<InvokeResult> {
  const { svm, payer } = harness;
  const message = pipe(
    createTransactionMessage({ version: 0 }),
    (tx) => setTransactionMessageFeePayerSigner(payer, tx),
    (tx) => svm.setTransactionMessageLifetimeUsingLatestBlockhash(tx),
    (tx) => appendTransactionMessageInstructions(instructions, tx),
  );
  const transaction = await signTransactionMessageWithSigners(message);
  const result = svm.sendTransaction(transaction);
  svm.expireBlockhash();
  if (result instanceof FailedTransactionMetadata) {
    return {
      ok: false,
      logs: result.meta().logs(),
      computeUnits: result.meta().computeUnitsConsumed(),
      error: result.err().toString(),
    };
  }
  return { ok: true, logs: result.logs(), computeUnits: result.computeUnitsConsumed(), error: undefined };
}

/** Invokes a program with instruction data and no accounts. */
export function invoke(harness: Harness, programId: Address, data: Uint8Array): Promise<InvokeResult> {
  return send(harness, [{ programAddress: programId, accounts: [], data }]);
}

/** Loads a program without verification (LiteSVM `addProgram`) under a fresh address. */
export async function addUnverified(harness: Harness, so: Uint8Array): Promise<Address> {
  const programId = (await generateKeyPairSigner()).address;
  harness.svm.addProgram(programId, so);
  return programId;
}

/**
 * Deploys through the upgradeable loader, exactly as `solana program deploy` does; returns the
 * program id, or throws with the loader's logs when deployment (ELF load + verification) fails.
 */
export async function deployVerified(harness: Harness, so: Uint8Array): Promise<Address> {
  const { svm, payer } = harness;
  const buffer = await generateKeyPairSigner();
  const program = await generateKeyPairSigner();
  const fail = (step: string, result: InvokeResult) => {
    throw new Error(`deploy ${step} failed: ${result.error}\n${result.logs.join("\n")}`);
  };

  const bufferSize = BUFFER_HEADER + so.length;
  let result = await send(harness, [
    createAccount(payer, buffer, svm.minimumBalanceForRentExemption(BigInt(bufferSize)), bufferSize),
    {
      programAddress: UPGRADEABLE_LOADER,
      accounts: [
        { address: buffer.address, role: AccountRole.WRITABLE },
        { address: payer.address, role: AccountRole.READONLY },
      ],
      data: u32(0),
    },
  ]);
  if (!result.ok) fail("InitializeBuffer", result);

  for (let offset = 0; offset < so.length; offset += WRITE_CHUNK) {
    const chunk = so.subarray(offset, offset + WRITE_CHUNK);
    result = await send(harness, [
      {
        programAddress: UPGRADEABLE_LOADER,
        accounts: [
          { address: buffer.address, role: AccountRole.WRITABLE },
          { address: payer.address, role: AccountRole.READONLY_SIGNER, signer: payer },
        ],
        data: mergeBytes([u32(1), u32(offset), u64(BigInt(chunk.length)), chunk]),
      },
    ]);
    if (!result.ok) fail(`Write@${offset}`, result);
  }

  const [programData] = await getProgramDerivedAddress({
    programAddress: UPGRADEABLE_LOADER,
    seeds: [getAddressEncoder().encode(program.address)],
  });
  result = await send(harness, [
    createAccount(
      payer,
      program,
      svm.minimumBalanceForRentExemption(BigInt(PROGRAM_ACCOUNT_SIZE)),
      PROGRAM_ACCOUNT_SIZE,
    ),
    {
      programAddress: UPGRADEABLE_LOADER,
      accounts: [
        { address: payer.address, role: AccountRole.WRITABLE_SIGNER, signer: payer },
        { address: programData, role: AccountRole.WRITABLE },
        { address: program.address, role: AccountRole.WRITABLE },
        { address: buffer.address, role: AccountRole.WRITABLE },
        { address: RENT_SYSVAR, role: AccountRole.READONLY },
        { address: CLOCK_SYSVAR, role: AccountRole.READONLY },
        { address: SYSTEM_PROGRAM, role: AccountRole.READONLY },
        { address: payer.address, role: AccountRole.READONLY_SIGNER, signer: payer },
      ],
      data: mergeBytes([u32(2), u64(BigInt(so.length))]),
    },
  ]);
  if (!result.ok) fail("DeployWithMaxDataLen", result);
  // A program deployed in slot N becomes executable in slot N + 1.
  svm.warpToSlot(svm.getClock().slot + 1n);
  return program.address;
}

function createAccount(
  payer: KeyPairSigner,
  account: KeyPairSigner,
  rent: bigint,
  space: number,
): SignedInstruction {
  return {
    programAddress: SYSTEM_PROGRAM,
    accounts: [
      { address: payer.address, role: AccountRole.WRITABLE_SIGNER, signer: payer },
      { address: account.address, role: AccountRole.WRITABLE_SIGNER, signer: account },
    ],
    data: mergeBytes([
      u32(0),
      u64(rent),
      u64(BigInt(space)),
      getAddressEncoder().encode(UPGRADEABLE_LOADER) as Uint8Array,
    ]),
  };
}

function u32(value: number): Uint8Array {
  const out = new Uint8Array(4);
  new DataView(out.buffer).setUint32(0, value, true);
  return out;
}

function u64(value: bigint): Uint8Array {
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigUint64(0, value, true);
  return out;
}

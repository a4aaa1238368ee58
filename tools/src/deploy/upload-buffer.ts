/**
 * Writes a program into a fresh BPF Upgradeable Loader buffer, as `solana program write-buffer`
 * does: one transaction creates the account and InitializeBuffer's it (the payer its authority), then
 * Write transactions each carry as many bytes as fit one 1232-byte packet. Writes go out a few at a
 * time; each lands through landTransaction's retries, and a Write sent twice writes the same bytes
 * to the same offset, so a retry can never corrupt the buffer.
 */
import {
  BPF_LOADER_UPGRADEABLE_ADDRESS,
  BUFFER_METADATA_SIZE,
  getCloseBufferInstruction,
  getInitializeBufferInstruction,
  getWriteInstruction,
} from "@cpay/sdk";
import { type ChainPort, PACKET_DATA_SIZE, signTransactionToWire } from "@cpay/sdk/chain";
import { type Address, generateKeyPairSigner, type KeyPairSigner } from "@solana/kit";
import { getCreateAccountInstruction } from "@solana-program/system";
import { DeployError } from "./deploy-error";
import { landTransaction } from "./land-transaction";

/** Write transactions in flight at once: enough to hide RPC latency, few enough not to be throttled. */
const WRITES_IN_FLIGHT = 8;
const PLACEHOLDER_BLOCKHASH = "11111111111111111111111111111111";

export interface UploadedBuffer {
  readonly buffer: Address;
  /** Create, then every Write in offset order. */
  readonly signatures: readonly string[];
}

/** Creates a buffer holding `elf` with `payer` as its authority (see the module doc). */
export async function uploadBuffer(
  chain: ChainPort,
  payer: KeyPairSigner,
  elf: Uint8Array,
  onProgress?: (written: number, total: number) => void,
): Promise<UploadedBuffer> {
  const buffer = await generateKeyPairSigner();
  const size = BUFFER_METADATA_SIZE + elf.length;
  const created = await landTransaction(chain, {
    feePayer: payer,
    what: `create buffer ${buffer.address}`,
    instructions: [
      getCreateAccountInstruction({
        payer,
        newAccount: buffer,
        lamports: await chain.minimumBalanceForRentExemption(size),
        space: size,
        programAddress: BPF_LOADER_UPGRADEABLE_ADDRESS,
      }),
      getInitializeBufferInstruction(buffer.address, payer.address),
    ],
  });

  const chunkSize = await writeChunkSize(payer, buffer.address);
  const offsets: number[] = [];
  for (let offset = 0; offset < elf.length; offset += chunkSize) offsets.push(offset);
  const signatures = new Array<string>(offsets.length);
  let next = 0;
  let written = 0;
  const worker = async () => {
    while (next < offsets.length) {
      const index = next++;
      const offset = offsets[index] as number;
      signatures[index] = await landTransaction(chain, {
        feePayer: payer,
        what: `write at ${offset} into buffer ${buffer.address}`,
        instructions: [
          getWriteInstruction(
            buffer.address,
            payer.address,
            offset,
            elf.subarray(offset, offset + chunkSize),
          ),
        ],
      });
      written += 1;
      onProgress?.(written, offsets.length);
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(WRITES_IN_FLIGHT, offsets.length) }, worker));
  } catch (error) {
    next = offsets.length;
    throw new DeployError(
      `${error instanceof Error ? error.message : String(error)}; ${await reclaimBuffer(chain, payer, buffer.address)}`,
    );
  }
  return { buffer: buffer.address, signatures: [created, ...signatures] };
}

/**
 * Gives a buffer's rent back to the payer after a deploy failed, so a failure costs only fees;
 * returns what became of it, for the error message.
 */
export async function reclaimBuffer(
  chain: ChainPort,
  payer: KeyPairSigner,
  buffer: Address,
): Promise<string> {
  try {
    await landTransaction(chain, {
      feePayer: payer,
      what: `close buffer ${buffer}`,
      instructions: [getCloseBufferInstruction(buffer, payer.address, payer.address)],
    });
    return `the buffer ${buffer} was closed and its rent returned to the payer`;
  } catch {
    return `the buffer ${buffer} still holds its rent: close it with solana program close ${buffer}`;
  }
}

/** Bytes of program per Write: a packet less an empty Write's size, less 1 (the length prefix grows). */
async function writeChunkSize(payer: KeyPairSigner, buffer: Address): Promise<number> {
  const empty = await signTransactionToWire({
    feePayer: payer,
    instructions: [getWriteInstruction(buffer, payer.address, 0, new Uint8Array(0))],
    blockhash: PLACEHOLDER_BLOCKHASH,
  });
  return PACKET_DATA_SIZE - empty.wire.length - 1;
}

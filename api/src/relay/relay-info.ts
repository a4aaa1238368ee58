/** `GET /v1/relay`: what a self-custody agent names in its transactions (fee payer, blockhash). */
import type { AccountRow } from "@cpay/ledger";
import type { TRelayInfo } from "@cpay/sdk/api";
import type { ServiceContext } from "../core/service-context";
import { ownerPubkeyOf } from "../transfers/seal-details";

/** The relay's names for `agent`, and its owner's ElGamal key (what a hold's amount is sealed to). */
export async function relayInfo(service: ServiceContext, agent: AccountRow): Promise<TRelayInfo> {
  const [{ blockhash, lastValidBlockHeight }, ownerPubkey] = await Promise.all([
    service.chain.getLatestBlockhash(),
    ownerPubkeyOf(service, agent),
  ]);
  return {
    fee_payer: service.feePayer.address,
    recent_blockhash: blockhash,
    last_valid_block_height: Number(lastValidBlockHeight),
    program_id: service.chain.programId,
    usdg_mint: service.chain.usdgMint,
    owner_elgamal_pubkey: ownerPubkey === null ? null : Buffer.from(ownerPubkey).toString("base64"),
  };
}

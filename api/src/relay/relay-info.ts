/** `GET /v1/relay`: what a self-custody agent names in its transactions (fee payer, blockhash). */
import type { TRelayInfo } from "@cpay/sdk/api";
import type { ServiceContext } from "../service-context";

export function relayInfo(service: ServiceContext): TRelayInfo {
  const { blockhash, lastValidBlockHeight } = service.cluster.getLatestBlockhash();
  return {
    fee_payer: service.feePayer.address,
    recent_blockhash: blockhash,
    last_valid_block_height: Number(lastValidBlockHeight),
    program_id: service.cluster.programId,
    usdg_mint: service.cluster.usdgMint,
  };
}

/** `GET /v1/relay`: what a self-custody agent names in its transactions (fee payer, blockhash). */
import type { TRelayInfo } from "@cpay/sdk/api";
import type { ServiceContext } from "../service-context";

export async function relayInfo(service: ServiceContext): Promise<TRelayInfo> {
  const { blockhash, lastValidBlockHeight } = await service.chain.getLatestBlockhash();
  return {
    fee_payer: service.feePayer.address,
    recent_blockhash: blockhash,
    last_valid_block_height: Number(lastValidBlockHeight),
    program_id: service.chain.programId,
    usdg_mint: service.chain.usdgMint,
  };
}

/**
 * The relay's contracts (self-custody agents, issue 8): an agent that signs through its PDA with its
 * own key sends its partially signed transactions; the service checks them, co-signs as the fee
 * payer, submits them in order and answers with the transfer in the shape of `POST /v1/transfers`.
 */
import { z } from "zod";
import { ZBase58Address, ZSignature } from "./common";
import { ZTransfer } from "./transfers";

/** What an agent needs to build a relayed transaction: the fee payer to name and a blockhash. */
export const ZRelayInfo = z
  .object({
    fee_payer: ZBase58Address,
    recent_blockhash: z.string(),
    last_valid_block_height: z.number().int().nonnegative(),
    program_id: ZBase58Address,
    usdg_mint: ZBase58Address,
    owner_elgamal_pubkey: z.string().nullable().optional().meta({
      description:
        "The agent's owner's ElGamal public key (base64, 32 bytes): what a hold's `sealed_amount` is sealed to. Null when the owner has none.",
    }),
  })
  .meta({ id: "RelayInfo" });
export type TRelayInfo = z.infer<typeof ZRelayInfo>;

/** Wire transactions, base64, the fee payer's signature slot left empty; submitted in this order. */
export const ZRelayRequest = z
  .strictObject({
    transactions: z
      .array(z.base64().max(2048).meta({ description: "A wire-format transaction, base64" }))
      .min(1)
      .max(8),
    sealed_amount: z.base64().length(420).optional().meta({
      description:
        "For a transfer the program may hold: its amount sealed from the agent to its owner (`@cpay/sdk/sealed`, bound to the hold's `tx_...` id). Kept on the hold the request creates and shown to the owner as what the agent stated; the service cannot check it (the program enforces the limits on the real amount).",
    }),
  })
  .meta({ id: "RelayRequest" });
export type TRelayRequest = z.input<typeof ZRelayRequest>;

export const ZRelayResponse = z
  .object({
    /** One per submitted transaction, in order. */
    signatures: z.array(ZSignature),
    /** The transfer the last transaction made or held (as `POST /v1/transfers` answers), or null. */
    transfer: ZTransfer.nullable(),
  })
  .meta({ id: "RelayResponse" });
export type TRelayResponse = z.infer<typeof ZRelayResponse>;

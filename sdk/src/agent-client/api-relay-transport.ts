/**
 * The relay over the service's `/v1` API: `GET /v1/relay` for the fee payer and a blockhash,
 * `POST /v1/relay` for the signed transactions, with the agent's own API key. A refusal rejects with
 * the API's `ApiRequestError` (its `code` and `param` say which transaction and rule).
 */
import { address, getBase64Decoder } from "@solana/kit";
import type { ApiClient } from "../api/client";
import type { RelayTransport } from "./relay-transport";

export function createApiRelayTransport(client: ApiClient): RelayTransport {
  return {
    async info() {
      const info = await client.call("getRelayInfo", {});
      return {
        feePayer: address(info.fee_payer),
        blockhash: info.recent_blockhash,
        lastValidBlockHeight: BigInt(info.last_valid_block_height),
        ownerElgamalPubkey:
          info.owner_elgamal_pubkey == null
            ? null
            : Uint8Array.from(atob(info.owner_elgamal_pubkey), (c) => c.charCodeAt(0)),
      };
    },
    async submit(transactions, options) {
      const answer = await client.call("relayTransactions", {
        body: {
          transactions: transactions.map((wire) => getBase64Decoder().decode(wire)),
          ...(options?.sealedAmount === undefined ? {} : { sealed_amount: options.sealedAmount }),
        },
      });
      return { signatures: answer.signatures, transfer: answer.transfer };
    },
  };
}

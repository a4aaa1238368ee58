/** `/v1/accounts/me` handlers (spec 4.9, 4.10). */

import { accountView } from "../../accounts/account-view";
import { confidentialStatusOf } from "../../accounts/confidential-status";
import { decryptionProofOf, REFUSED_PROOF_HEADER } from "../../accounts/decryption-proof-input";
import { readBalances } from "../../accounts/read-balances";
import { requireKyc } from "../../accounts/require-kyc";
import { confidentialKeysOf } from "../../vault/account-secrets";
import type { Handlers } from "../mount-routes";

export const accountHandlers: Pick<Handlers, "getMe" | "getBalances" | "proveBalances"> = {
  getMe: async ({ service, caller }) => {
    await requireKyc(service, caller.account);
    const status = await confidentialStatusOf(service, caller.account, service.chain.usdgMint);
    // The browser checks an unlocked secret against it before showing any amount it decrypts.
    const keys = await confidentialKeysOf(service, caller.account);
    return {
      ...accountView(caller.account),
      ...(status === undefined ? {} : { confidential_status: status }),
      elgamal_pubkey: Buffer.from(keys.elgamalPubkey).toString("base64"),
    };
  },
  getBalances: balancesRead,
  // The same read with the proof in a POST body, for browsers (`fetch` sends no GET body).
  proveBalances: balancesRead,
};

type BalancesInput = Parameters<Handlers["getBalances"] | Handlers["proveBalances"]>[0];

/** GET and POST /v1/accounts/me/balances: the optional proof comes in the body either way. */
async function balancesRead({ service, caller, body, request }: BalancesInput) {
  const proof = decryptionProofOf(body.decryption_proof, request.get(REFUSED_PROOF_HEADER));
  await requireKyc(service, caller.account);
  return readBalances(service, caller.account, proof);
}

/** `/v1/accounts/me` handlers (spec 4.9, 4.10). */
import type { Handlers } from "../http/mount-routes";
import { confidentialKeysOf } from "../vault/account-secrets";
import { accountView } from "./account-view";
import { confidentialStatusOf } from "./confidential-status";
import { decryptionProofOf, REFUSED_PROOF_HEADER } from "./decryption-proof-input";
import { readBalances } from "./read-balances";
import { requireKyc } from "./require-kyc";

export const accountHandlers: Pick<Handlers, "getMe" | "getBalances"> = {
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
  getBalances: async ({ service, caller, body, request }) => {
    const proof = decryptionProofOf(body.decryption_proof, request.get(REFUSED_PROOF_HEADER));
    await requireKyc(service, caller.account);
    return readBalances(service, caller.account, proof);
  },
};

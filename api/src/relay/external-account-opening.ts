/**
 * The relay never has the fee reserve open a token account for an owner outside the service.
 *
 * Whoever closes a token account takes its rent. A self-custody agent builds its own transactions,
 * so if the reserve paid (CreateIdempotent with the fee payer as `payer`) for accounts of
 * addresses the agent's holder controls, dust to fresh addresses would turn the reserve's SOL into
 * theirs. The service's own transfers charge the sender an account-opening fee for that
 * (transfers/account-opening.ts), but the relay cannot: the fee would have to come from the owner's
 * wallet, and the relay signs as the fee payer only — it never signs for the owner with a key in
 * its vault on a transaction the agent wrote, which is what keeps the agent's bytes from spending
 * anything but fees and rent — nor can it come from the agent's PDA, which only pays recipients
 * under its policy. So a reserve-paid opening is relayed only for the service's own accounts
 * (accounts/service-wallet.ts), whose accounts only the service can close. Any other is refused,
 * saying how to proceed: the agent signer may pay that rent itself (it is an allowed signer, and
 * the reserve then pays nothing but the transaction's fee), the recipient may open its account, and once it
 * exists the transfer needs no opening (the SDK leaves it out then). An opening refused here is
 * refused whether or not the account exists: it could be closed before the transaction lands.
 */
import { ASSOCIATED_TOKEN_PROGRAM_ADDRESS } from "@solana-program/token-2022";
import { isServiceWallet } from "../accounts/service-wallet";
import { ApiError } from "../core/api-error";
import type { ServiceContext } from "../core/service-context";
import type { RelayedInstruction } from "./checks/verdict";

/** CreateIdempotent's accounts: `[payer, ata, owner, mint, system_program, token_program]`. */
const PAYER = 0;
const OWNER = 2;

/**
 * Throws `422 relay_transaction_refused` (rule `external_account_opening`) naming the first
 * transaction whose instruction has the fee payer open an account for an owner outside the service.
 * `checked` are the transactions' instructions as the static check passed them.
 */
export async function refuseExternalAccountOpenings(
  service: ServiceContext,
  checked: readonly (readonly RelayedInstruction[])[],
): Promise<void> {
  for (const [index, instructions] of checked.entries()) {
    for (const instruction of instructions) {
      if (instruction.program !== ASSOCIATED_TOKEN_PROGRAM_ADDRESS) continue;
      if (instruction.accounts[PAYER] !== service.feePayer.address) continue;
      const owner = instruction.accounts[OWNER] ?? "";
      if (await isServiceWallet(service, owner)) continue;
      throw new ApiError(
        "relay_transaction_refused",
        `instruction ${instruction.index} has the fee payer open a USDG account for ${owner}, which is not an account of this service: the fee reserve opens token accounts only for the service's own accounts, since any other owner could close it and keep the rent. Have the agent signer pay that rent itself (make it CreateIdempotent's payer), or the recipient open its account; once the account exists, send the transfer without CreateIdempotent (@cpay/sdk/agent-client leaves it out then) (external_account_opening); nothing was signed`,
        `transactions[${index}]`,
      );
    }
  }
}

/**
 * An example agent: its own process, the SDK, its keys, the relay. It pays a recipient once in
 * public and once confidentially under the spend policy its owner set on-chain, then reads what is
 * left of today's limits, and prints one JSON line per step (signatures, transfer ids and statuses;
 * never a confidential amount, which only the two parties can decrypt).
 *
 *   tsx examples/agent/src/main.ts <recipient @handle or address> <public amount> <confidential amount>
 *
 * Amounts are USDG in decimal ("1.50"). Settings: settings.ts.
 */
import { createAgentClient, createApiRelayTransport } from "@cpay/sdk/agent-client";
import { ApiRequestError, createApiClient } from "@cpay/sdk/api";
import { connectRpcChain } from "@cpay/sdk/chain";
import { deriveConfidentialKeys, importConfidentialSecret } from "@cpay/sdk/confidential";
import { address, createKeyPairSignerFromPrivateKeyBytes, getBase58Encoder } from "@solana/kit";
import { resolveRecipient } from "./recipient";
import { settingsFromEnv } from "./settings";
import { parseUsdg } from "./usdg";

async function main(argv: readonly string[]): Promise<void> {
  const [recipientText, publicText, confidentialText] = argv;
  if (recipientText === undefined || publicText === undefined || confidentialText === undefined) {
    throw new Error("usage: main.ts <recipient @handle or address> <public USDG> <confidential USDG>");
  }
  // Both amounts are read before anything is paid: a typo in the second must not leave the first paid.
  const publicAmount = parseUsdg(publicText);
  const confidentialAmount = parseUsdg(confidentialText);
  const settings = settingsFromEnv(process.env);
  const api = createApiClient({ baseUrl: settings.apiUrl, apiKey: settings.apiKey });
  const me = await api.call("getMe", {});
  const relayInfo = await api.call("getRelayInfo", {});
  const chain = await connectRpcChain({
    rpcUrl: settings.rpcUrl,
    wsUrl: settings.wsUrl,
    programId: relayInfo.program_id,
    usdgMint: relayInfo.usdg_mint,
  });
  try {
    const signer = await createKeyPairSignerFromPrivateKeyBytes(
      new Uint8Array(getBase58Encoder().encode(settings.signerSecret)),
    );
    const client = createAgentClient({
      chain,
      relay: createApiRelayTransport(api),
      agentSigner: signer,
      agent: address(me.public_key),
      keys: deriveConfidentialKeys(importConfidentialSecret(settings.confidentialSecret)),
      mint: address(relayInfo.usdg_mint),
    });
    const recipient = await resolveRecipient(chain, recipientText);
    const report = (step: string, value: unknown) =>
      console.log(
        JSON.stringify({ step, ...(value as object) }, (_key, v) =>
          typeof v === "bigint" ? v.toString() : v,
        ),
      );

    const paid = await client.transfer({ ...recipient, amount: publicAmount, confidential: false });
    report("public_transfer", { signatures: paid.signatures, transfer: paid.transfer });
    const hidden = await client.transfer({
      ...recipient,
      amount: confidentialAmount,
      confidential: true,
    });
    report("confidential_transfer", { signatures: hidden.signatures, transfer: hidden.transfer });
    const remaining = await client.remainingToday();
    // Snake case, like every field the API writes.
    report("remaining_today", { daily: remaining.daily, per_transaction: remaining.perTransaction });
  } finally {
    await chain.close();
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(`example agent: ${describeError(error)}`);
  process.exit(1);
});

/**
 * The failure in one line. An API refusal's `param` names the policy rule the program applied
 * (`per_transaction_limit_usdg`, `daily_limit_usdg`, ...): the message reads well but is not
 * something a caller can match on. A confidential step the relay refused carries the refusal as its
 * `cause`, its message already quoting the refusal's.
 */
function describeError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  let refusal: unknown = error;
  while (refusal instanceof Error && !(refusal instanceof ApiRequestError)) refusal = refusal.cause;
  return refusal instanceof ApiRequestError && refusal.param !== undefined
    ? `${message} (${refusal.param})`
    : message;
}

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
import { createApiClient } from "@cpay/sdk/api";
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

    const paid = await client.transfer({ ...recipient, amount: parseUsdg(publicText), confidential: false });
    report("public_transfer", { signatures: paid.signatures, transfer: paid.transfer });
    const hidden = await client.transfer({
      ...recipient,
      amount: parseUsdg(confidentialText),
      confidential: true,
    });
    report("confidential_transfer", { signatures: hidden.signatures, transfer: hidden.transfer });
    report("remaining_today", await client.remainingToday());
  } finally {
    await chain.close();
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(`example agent: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});

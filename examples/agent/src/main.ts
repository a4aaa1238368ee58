/**
 * An example agent: its own process, the SDK, its keys, the relay. It pays a recipient once in
 * public and once confidentially under the spend policy its owner set on-chain, then reads what is
 * left of today's limits, and prints one JSON line per step (signatures, transfer ids and statuses;
 * never a confidential amount, which only the two parties can decrypt).
 *
 *   tsx examples/agent/src/main.ts <recipient @handle or address> <public amount> <confidential amount>
 *
 * Amounts are USDG in decimal ("1.50"). Settings: `agentSettingsFromEnv` of `@cpay/sdk/agent-client`
 * (README.md lists them).
 */
import { agentSettingsFromEnv, connectAgent, resolveRecipient } from "@cpay/sdk/agent-client";
import { ApiRequestError } from "@cpay/sdk/api";
import { parseUsdg } from "./usdg";

async function main(argv: readonly string[]): Promise<void> {
  const [recipientText, publicText, confidentialText] = argv;
  if (recipientText === undefined || publicText === undefined || confidentialText === undefined) {
    throw new Error("usage: main.ts <recipient @handle or address> <public USDG> <confidential USDG>");
  }
  // Both amounts are read before anything is paid: a typo in the second must not leave the first paid.
  const publicAmount = parseUsdg(publicText);
  const confidentialAmount = parseUsdg(confidentialText);
  const agent = await connectAgent(agentSettingsFromEnv(process.env));
  try {
    const { client } = agent;
    const recipient = await resolveRecipient(agent.chain, recipientText);
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
    await agent.close();
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

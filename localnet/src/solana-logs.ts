/**
 * `solana logs <ADDRESS> --url <RPC URL>`: the one Solana CLI command `anchor test` runs beside its
 * test script (it streams each program's logs into `.anchor/program-logs/`). No Solana CLI can be
 * installed offline, so `localnet/bin/solana` runs this instead; it speaks to the cluster only
 * through `logsSubscribe`, as the CLI does, so it works against the localnet or any validator.
 * Prints each transaction mentioning the address in the CLI's own layout, until it is killed.
 */
import { address, createSolanaRpcSubscriptions } from "@solana/kit";

/** The PubSub URL the Solana CLI derives from an RPC URL: same host, port + 1, ws(s). */
export function pubSubUrlOf(rpcUrl: string): string {
  const url = new URL(rpcUrl);
  url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
  if (url.port !== "") url.port = String(Number(url.port) + 1);
  return url.toString();
}

/** Parses `<ADDRESS> [--url|-u <URL>] [--commitment <LEVEL>]`, the arguments anchor passes. */
export function parseLogsArguments(argv: readonly string[]): { account: string; rpcUrl: string } {
  let account: string | undefined;
  let rpcUrl = "http://127.0.0.1:8899";
  for (let at = 0; at < argv.length; at++) {
    const argument = argv[at] ?? "";
    if (argument === "--url" || argument === "-u") {
      rpcUrl = argv[++at] ?? "";
      if (rpcUrl === "localhost" || rpcUrl === "l") rpcUrl = "http://127.0.0.1:8899";
    } else if (argument === "--commitment") {
      at++;
    } else if (!argument.startsWith("-") && account === undefined) {
      account = argument;
    } else {
      throw new Error(`solana logs: unexpected argument ${argument}`);
    }
  }
  if (account === undefined) throw new Error("solana logs: an address to follow is required");
  return { account, rpcUrl };
}

/** JSON of an RPC error object whose numbers kit decoded as bigints (all small: indices, codes). */
function plainNumbers(_key: string, value: unknown): unknown {
  return typeof value === "bigint" ? Number(value) : value;
}

async function main(): Promise<void> {
  const { account, rpcUrl } = parseLogsArguments(process.argv.slice(2));
  const subscriptions = createSolanaRpcSubscriptions(pubSubUrlOf(rpcUrl));
  const abort = new AbortController();
  process.on("SIGTERM", () => abort.abort());
  process.on("SIGINT", () => abort.abort());
  console.log(`Streaming transaction logs mentioning ${account}. Confirmed commitment`);
  const notifications = await subscriptions
    .logsNotifications({ mentions: [address(account)] }, { commitment: "confirmed" })
    .subscribe({ abortSignal: abort.signal });
  try {
    for await (const notification of notifications) {
      const { signature, err, logs } = notification.value;
      const status = err === null ? "Ok" : `Error: ${JSON.stringify(err, plainNumbers)}`;
      console.log(`Transaction executed in slot ${notification.context.slot}:`);
      console.log(`  Signature: ${signature}`);
      console.log(`  Status: ${status}`);
      console.log("  Log Messages:");
      for (const line of logs) console.log(`    ${line}`);
    }
  } catch (error) {
    if (!abort.signal.aborted) throw error;
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}

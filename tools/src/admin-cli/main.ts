#!/usr/bin/env -S npx tsx
/**
 * The admin CLI (`npm run admin -- <command>`, or `bash scripts/run.sh tsx tools/src/admin-cli/main.ts
 * <command>`): what the spec leaves to a dashboard — accounts and KYC, API keys and their usage,
 * the fee reserve's spend per account, the test faucet. It talks to the running service's admin listener (127.0.0.1:3001, admin token from
 * `data/admin.token`), because the embedded cluster lives inside that process. Secrets the service
 * hands out (an account's confidential secret, an API key) are printed once; a key's transferred
 * total is decrypted here, never by the service. Two commands work on the database itself, with the
 * service's environment (DATABASE_URL, the master keys), and need no admin listener: `vault`
 * (master-key rotation) and `backup` (an online SQLite backup).
 *
 * Exit codes: 0 done, 1 refused or failed by the service, 2 bad usage or input, 3 service unreachable.
 */
import { runCli } from "./run-cli";

process.exitCode = await runCli(process.argv);

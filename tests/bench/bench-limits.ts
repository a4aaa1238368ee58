/**
 * The service settings every bench world starts with (the children of bench-connection.ts, the API
 * worlds of the indexer and webhook entries, the fault world of rpc faults): each per-account limit
 * that would measure itself instead of the code is raised out of the way through its documented
 * setting. The service's defaults are for an account's day; a bench sends a day's volume in seconds.
 * - `RESERVE_DAILY_BUDGET_LAMPORTS` (default 1 SOL): the fee reserve holds each public transfer at
 *   its maximum possible loss (the fees, and a recipient token account it might open) until it
 *   settles. The indexer entry keeps its 300 transfers unsettled on purpose (its clock stopped); the
 *   API loads send thousands. Raised to the largest value the setting accepts, 1,000 SOL, which none
 *   of them comes near.
 * - `RESERVE_ADVANCE_CAP_LAMPORTS` (default 5 SOL, about 3,000 receipts): the receipt rent an account
 *   has out at once; the loads send faster than the receipt job returns it. Raised the same.
 * - `RATE_LIMIT_PER_MINUTE`, `AUTH_FAILURE_LIMIT_PER_MINUTE`: the loads send from one key and one
 *   address far faster than 600 requests a minute.
 * - `RELAY_RATE_LIMIT_PER_MINUTE` (default 60): a self-custody agent's confidential transfer is
 *   seven relay requests, and the latency entry makes one after another for minutes.
 */
export const BENCH_SERVICE_LIMITS: Readonly<Record<string, string>> = {
  RESERVE_DAILY_BUDGET_LAMPORTS: "1000000000000",
  RESERVE_ADVANCE_CAP_LAMPORTS: "1000000000000",
  RATE_LIMIT_PER_MINUTE: "1000000000",
  AUTH_FAILURE_LIMIT_PER_MINUTE: "1000000000",
  RELAY_RATE_LIMIT_PER_MINUTE: "1000000",
};

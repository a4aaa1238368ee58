/**
 * The service settings every bench world starts with (the children of bench-connection.ts, the API
 * worlds of the indexer and webhook entries, the fault world of rpc faults): each per-account limit
 * that would measure itself instead of the code is raised out of the way through its documented
 * setting. The service's defaults are for an account's day; a bench sends a day's volume in seconds.
 * - `RESERVE_DAILY_BUDGET_LAMPORTS` (default 1 SOL): the fee reserve holds each public transfer at
 *   its maximum cost (3,754,480 lamports: the fees, a recipient token account it might open, the
 *   receipt's rent) until it settles, and the receipt's rent until the receipt job returns it 1,000
 *   slots later. The indexer entry keeps its 300 transfers unsettled on purpose (its clock stopped),
 *   which the default refuses after about 266; the API loads send thousands. Raised to the largest
 *   value the setting accepts, 1,000 SOL, which none of them comes near.
 * - `RATE_LIMIT_PER_MINUTE`, `AUTH_FAILURE_LIMIT_PER_MINUTE`: the loads send from one key and one
 *   address far faster than 600 requests a minute.
 */
export const BENCH_SERVICE_LIMITS: Readonly<Record<string, string>> = {
  RESERVE_DAILY_BUDGET_LAMPORTS: "1000000000000",
  RATE_LIMIT_PER_MINUTE: "1000000000",
  AUTH_FAILURE_LIMIT_PER_MINUTE: "1000000000",
};

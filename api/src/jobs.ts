/** Imports the modules that register background jobs (coordination/background-jobs.ts), so starting the service starts them. */
import "./http/usage-stamps";
import "./transfers/close-receipts";
import "./http/sweep-idempotency";
import "./transfers/recover-submissions";
import "./transfers/recover-dropped";
import "./approvals/expire-holds";
import "./reserve/reconcile-reserve";
import "./webhooks/deliver-webhooks";
import "./reserve/reserve-balance-watch";
import "./x402/recover-settlements";

/**
 * The service's tables, defined once for both dialects. `defineTables` is called with SQLite's and
 * PostgreSQL's column builders (`schema.sqlite.ts`, `schema.pg.ts`, which drizzle-kit reads to
 * write the migrations); the builders share names and call shapes, and only portable column types
 * are used: text (timestamps are ISO 8601 UTC strings, which sort as they compare), 53-bit
 * integers and booleans. Queries are typed by the PostgreSQL form (database.ts explains why that is
 * sound for SQLite too).
 *
 * No column ever holds a plaintext amount of a confidential transfer, a secret or an API key:
 * secrets are vault ciphertexts, keys are SHA-256 hashes (of 256-bit random keys), usage totals are
 * ElGamal ciphertexts under the account holder's key, and a request's fingerprint is an HMAC under
 * a key derived from the master key (a plain hash of a body would give a small amount away).
 */
import type {
  index,
  bigint as pgBigint,
  boolean as pgBoolean,
  pgTable,
  text,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import type { TransferPhase, TransferStatus } from "../transfers/transfer-states";

/** The column builders both dialects provide under these names (typed as PostgreSQL's). */
export interface ColumnKit {
  readonly table: typeof pgTable;
  readonly text: typeof text;
  /** A 53-bit integer: `bigint` (mode number) on PostgreSQL, `integer` on SQLite. */
  readonly int: (name: string) => ReturnType<typeof pgBigint<string, "number">>;
  readonly bool: typeof pgBoolean;
  readonly index: typeof index;
  readonly uniqueIndex: typeof uniqueIndex;
}

export function defineTables(c: ColumnKit) {
  return {
    /** Accounts: personal and business accounts, and agents (namespaced under their owner). */
    accounts: c.table(
      "accounts",
      {
        id: c.text("id").primaryKey(),
        handle: c.text("handle").notNull(),
        type: c.text("type").notNull(),
        kycStatus: c.text("kyc_status").notNull(),
        /** Wallet address (personal/business) or the agent's PDA (agent). */
        publicKey: c.text("public_key").notNull(),
        ownerAccountId: c.text("owner_account_id"),
        agentName: c.text("agent_name"),
        agentSigner: c.text("agent_signer"),
        /** Agents only: `service` (the vault holds its signer) or `self` (the agent holds it; relay). */
        agentCustody: c.text("agent_custody"),
        policyId: c.text("policy_id"),
        createdAt: c.text("created_at").notNull(),
      },
      (t) => [
        c.uniqueIndex("accounts_handle").on(t.handle),
        c.uniqueIndex("accounts_public_key").on(t.publicKey),
        c.index("accounts_owner").on(t.ownerAccountId),
      ],
    ),

    /** Vault: one sealed secret per (account, kind); `account_id` "service" for the service's own keys. */
    vaultSecrets: c.table(
      "vault_secrets",
      {
        accountId: c.text("account_id").notNull(),
        kind: c.text("kind").notNull(),
        keyId: c.text("key_id").notNull(),
        sealed: c.text("sealed").notNull(),
        createdAt: c.text("created_at").notNull(),
      },
      (t) => [c.uniqueIndex("vault_secrets_owner_kind").on(t.accountId, t.kind)],
    ),

    /** API keys: only the SHA-256 hash of the key is stored; prefix and last 4 characters for display. */
    apiKeys: c.table(
      "api_keys",
      {
        id: c.text("id").primaryKey(),
        accountId: c.text("account_id").notNull(),
        name: c.text("name").notNull(),
        environment: c.text("environment").notNull(),
        keyHash: c.text("key_hash").notNull(),
        last4: c.text("last4").notNull(),
        createdAt: c.text("created_at").notNull(),
        revokedAt: c.text("revoked_at"),
        lastUsedAt: c.text("last_used_at"),
        requestCount: c.int("request_count").notNull().default(0),
        transferCount: c.int("transfer_count").notNull().default(0),
        /** Base64 ElGamal running total (sdk `encrypted-total`) under the account's key; null before any. */
        transferredTotal: c.text("transferred_total"),
      },
      (t) => [c.uniqueIndex("api_keys_hash").on(t.keyHash), c.index("api_keys_account").on(t.accountId)],
    ),

    /**
     * Transfers sent by the service's accounts: made through the API, or found by the indexer in the
     * program's logs (an agent signing through its PDA itself). `status`: pending, confirmed, failed.
     */
    transfers: c.table(
      "transfers",
      {
        id: c.text("id").primaryKey(),
        accountId: c.text("account_id").notNull(),
        /** The key that made it; null for a transfer the indexer found on chain. */
        apiKeyId: c.text("api_key_id"),
        fromHandle: c.text("from_handle").notNull(),
        to: c.text("to").notNull(),
        recipientAddress: c.text("recipient_address").notNull(),
        asset: c.text("asset").notNull(),
        confidential: c.bool("confidential").notNull(),
        status: c.text("status").$type<TransferStatus>().notNull(),
        /** Until the chain answers: `submitting` (crash recovery reconciles it, see api/src/transfers/recover-submissions.ts). */
        phase: c.text("phase").$type<TransferPhase>().notNull(),
        txSignature: c.text("tx_signature"),
        /** Every signature the transfer produced (JSON array), for reconciliation. */
        signatures: c.text("signatures").notNull().default("[]"),
        failureCode: c.text("failure_code"),
        /**
         * The amount as an encrypted total (sdk `encrypted-total`, base64) under the sending account's
         * key, written with the row before submission; added to the key's usage total when the
         * transfer is submitted — at once, at approval of a hold, or by crash recovery. Never plaintext.
         */
        usageIncrement: c.text("usage_increment"),
        /** The hold the program made of this transfer (an agent's above its HITL threshold), if any. */
        holdId: c.text("hold_id"),
        createdAt: c.text("created_at").notNull(),
        confirmedAt: c.text("confirmed_at"),
        /**
         * The amount and memo sealed by the service at creation from the sender's keys to the
         * recipient's ElGamal key (or to the sender's own), `@cpay/sdk/sealed` envelope v1, base64:
         * only the two parties' secrets open it. Null for a transfer made before sealing existed, or
         * one the service did not create (found on chain, relayed for a self-custody agent).
         */
        sealedDetails: c.text("sealed_details"),
      },
      (t) => [
        c.index("transfers_account_created").on(t.accountId, t.createdAt),
        c.index("transfers_phase").on(t.phase),
        // A recipient's list: what was paid to its wallet (or agent PDA).
        c.index("transfers_recipient_created").on(t.recipientAddress, t.createdAt),
      ],
    ),

    /**
     * Holds: an agent's transfers the program held above its HITL threshold until the owner's approval
     * (docs/glossary.md). `status` keeps the /v1 words: pending_approval, approved, rejected, expired.
     */
    holds: c.table(
      "holds",
      {
        id: c.text("id").primaryKey(),
        agentAccountId: c.text("agent_account_id").notNull(),
        ownerAccountId: c.text("owner_account_id").notNull(),
        transferId: c.text("transfer_id").notNull(),
        /** The hold account on chain: the program's `PendingTransaction` (seeds "pending", agent, nonce). */
        holdAddress: c.text("hold_address").notNull(),
        to: c.text("to").notNull(),
        confidential: c.bool("confidential").notNull(),
        status: c.text("status").notNull(),
        requestedAt: c.text("requested_at").notNull(),
        expiresAt: c.text("expires_at").notNull(),
        decidedAt: c.text("decided_at"),
        txSignature: c.text("tx_signature"),
        /**
         * The held amount (and memo) sealed from the agent's keys to the owner's, bound to this row's
         * id (`@cpay/sdk/sealed`, base64), so the owner decides with the amount in view; null when the
         * service never knew it (a hold found on chain, or relayed without one).
         */
        sealedAmount: c.text("sealed_amount"),
      },
      (t) => [
        c.index("holds_owner_status").on(t.ownerAccountId, t.status),
        c.uniqueIndex("holds_hold_address").on(t.holdAddress),
      ],
    ),

    /** Idempotency records: one per (account, key), kept 24 h, then deleted (http/idempotency.ts). */
    idempotencyKeys: c.table(
      "idempotency_keys",
      {
        accountId: c.text("account_id").notNull(),
        key: c.text("key").notNull(),
        /** HMAC-SHA256 of the request under a key derived from the master key: never an unkeyed hash. */
        requestHash: c.text("request_hash").notNull(),
        /** `in_progress` until the first request answers, then `completed`. */
        state: c.text("state").notNull(),
        responseStatus: c.int("response_status"),
        responseBody: c.text("response_body"),
        /** The resource the request creates (e.g. `tr_...`), bound before any chain submission. */
        resourceId: c.text("resource_id"),
        createdAt: c.text("created_at").notNull(),
        expiresAt: c.text("expires_at").notNull(),
        /**
         * While `in_progress`: the holder renews it; once past, the holder is presumed dead and the
         * next request with the key recovers the claim. Null once completed.
         */
        leaseExpiresAt: c.text("lease_expires_at"),
      },
      (t) => [
        c.uniqueIndex("idempotency_keys_account_key").on(t.accountId, t.key),
        c.index("idempotency_keys_expires").on(t.expiresAt),
      ],
    ),

    /**
     * The event outbox (spec 6): one row per fact, `fact_key` unique so whoever observes a fact first
     * (the API at submission, the indexer from the program's logs) records it and the other's insert
     * does nothing. Payloads never carry an amount. `fan_out_pending` is set when the event is
     * written; the webhook worker creates its deliveries in a transaction of its own and clears it,
     * so recording an event (often in a hot transaction: a checkpoint, a transfer transition) writes
     * one row whatever the number of subscriptions.
     */
    events: c.table(
      "events",
      {
        id: c.text("id").primaryKey(),
        type: c.text("type").notNull(),
        accountId: c.text("account_id").notNull(),
        resourceId: c.text("resource_id").notNull(),
        factKey: c.text("fact_key").notNull(),
        payload: c.text("payload").notNull(),
        createdAt: c.text("created_at").notNull(),
        fanOutPending: c.bool("fan_out_pending").notNull().default(false),
      },
      (t) => [
        c.uniqueIndex("events_fact_key").on(t.factKey),
        c.index("events_account").on(t.accountId, t.createdAt),
        c.index("events_fan_out_pending").on(t.fanOutPending, t.createdAt),
      ],
    ),

    /**
     * Webhook subscriptions (spec 2.7); the signing secret is sealed in the vault (kind
     * `webhook_secret`). Rotation moves it to `webhook_secret_previous`, which keeps signing until
     * `previous_secret_expires_at`; `secret_version` counts rotations, so a worker's cache of opened
     * secrets never serves a rotated-out one as current.
     */
    webhookSubscriptions: c.table(
      "webhook_subscriptions",
      {
        id: c.text("id").primaryKey(),
        accountId: c.text("account_id").notNull(),
        url: c.text("url").notNull(),
        /** JSON array of event types. */
        events: c.text("events").notNull(),
        createdAt: c.text("created_at").notNull(),
        deletedAt: c.text("deleted_at"),
        secretVersion: c.int("secret_version").notNull().default(1),
        previousSecretExpiresAt: c.text("previous_secret_expires_at"),
      },
      (t) => [c.index("webhook_subscriptions_account").on(t.accountId)],
    ),

    /**
     * One delivery of one event to one subscription (spec 2.8, 6.4): written by the worker's fan-out
     * step (webhooks/fan-out.ts), claimed by the delivery workers. `history` is a JSON array of attempts
     * `{at, status_code, error}`; `state`: queued, delivering, delivered, failed, cancelled.
     */
    webhookDeliveries: c.table(
      "webhook_deliveries",
      {
        id: c.text("id").primaryKey(),
        subscriptionId: c.text("subscription_id").notNull(),
        eventId: c.text("event_id").notNull(),
        state: c.text("state").notNull(),
        attempts: c.int("attempts").notNull().default(0),
        nextAttemptAt: c.text("next_attempt_at"),
        lastStatusCode: c.int("last_status_code"),
        history: c.text("history").notNull().default("[]"),
        createdAt: c.text("created_at").notNull(),
        updatedAt: c.text("updated_at").notNull(),
      },
      (t) => [
        c.uniqueIndex("webhook_deliveries_subscription_event").on(t.subscriptionId, t.eventId),
        c.index("webhook_deliveries_due").on(t.state, t.nextAttemptAt),
      ],
    ),

    /**
     * The indexer's position in the program's history, one row per source (`program`): the newest
     * transaction indexed, walked oldest-first from here. Written in the same DB transaction as the
     * records and events of that transaction, so a crash resumes exactly where it committed.
     */
    indexerCheckpoints: c.table("indexer_checkpoints", {
      source: c.text("source").primaryKey(),
      slot: c.int("slot").notNull(),
      signature: c.text("signature").notNull(),
      updatedAt: c.text("updated_at").notNull(),
    }),

    /**
     * What the indexer recorded from each instruction of a program transaction, keyed by
     * (signature, instruction index, event index): the program event and the record it moved.
     * `state`: confirmed (recorded at confirmed commitment), finalized, or reverted (the transaction
     * was gone when its slot was finalized, and the records it moved were undone).
     */
    indexedEvents: c.table(
      "indexed_events",
      {
        signature: c.text("signature").notNull(),
        instructionIndex: c.int("instruction_index").notNull(),
        eventIndex: c.int("event_index").notNull(),
        slot: c.int("slot").notNull(),
        event: c.text("event").notNull(),
        /** `tr_...`, `tx_...` or the agent account id the event concerns; null when none of ours. */
        resourceId: c.text("resource_id"),
        state: c.text("state").notNull(),
        createdAt: c.text("created_at").notNull(),
      },
      (t) => [
        c.uniqueIndex("indexed_events_position").on(t.signature, t.instructionIndex, t.eventIndex),
        c.index("indexed_events_state_slot").on(t.state, t.slot),
      ],
    ),

    /**
     * Fees the fee reserve paid for a self-custody agent's relayed transactions, per UTC day, against
     * its daily cap (api/src/relay/fee-budget.ts). Reserved before co-signing.
     */
    relayFeeUsage: c.table(
      "relay_fee_usage",
      {
        agentAccountId: c.text("agent_account_id").notNull(),
        day: c.text("day").notNull(),
        lamports: c.int("lamports").notNull(),
      },
      (t) => [c.uniqueIndex("relay_fee_usage_agent_day").on(t.agentAccountId, t.day)],
    ),

    /**
     * What the receipt job (transfers/close-receipts.ts) did with each settled transfer's Receipt:
     * `closed` (its rent back to the fee reserve: `rent_returned` lamports, in `signature`), `none`
     * (no receipt of the reserve's to close: none was created, or someone else paid it). One row
     * per transfer, written once.
     */
    receiptClosures: c.table("receipt_closures", {
      transferId: c.text("transfer_id").primaryKey(),
      receiptAddress: c.text("receipt_address").notNull(),
      outcome: c.text("outcome").notNull(),
      rentReturned: c.int("rent_returned").notNull(),
      signature: c.text("signature"),
      closedAt: c.text("closed_at").notNull(),
    }),

    /**
     * What the fee reserve lost for an account per UTC day (api/src/reserve): fees plus rent it may
     * not get back, net of such rent that came back, an agent's counted to its owner. A transaction's
     * maximum is reserved (`reserved_lamports`) before the reserve signs it and moved to `lamports` as
     * what it actually lost once it landed; `RESERVE_DAILY_BUDGET_LAMPORTS` bounds their sum. Rent
     * that can only come back to the reserve (Receipts, holds) is not here but in `reserve_advances`.
     */
    reserveUsage: c.table(
      "reserve_usage",
      {
        accountId: c.text("account_id").notNull(),
        day: c.text("day").notNull(),
        lamports: c.int("lamports").notNull(),
        reservedLamports: c.int("reserved_lamports").notNull(),
      },
      (t) => [c.uniqueIndex("reserve_usage_account_day").on(t.accountId, t.day)],
    ),

    /**
     * Rent the fee reserve advanced for an account and has not got back yet (api/src/reserve): the
     * Receipts and holds it paid for, whose rent the program returns only to it (a receipt when the
     * receipt job closes it, a hold when it is decided or expires), an agent's counted to its owner.
     * Not per day: what is out is out until it comes back. `reserved_lamports` is held for
     * transactions not settled yet, `lamports` what landed; `RESERVE_ADVANCE_CAP_LAMPORTS` bounds
     * their sum.
     */
    reserveAdvances: c.table("reserve_advances", {
      accountId: c.text("account_id").primaryKey(),
      lamports: c.int("lamports").notNull(),
      reservedLamports: c.int("reserved_lamports").notNull(),
    }),

    /**
     * Reserve spends whose landed transactions are not yet read (api/src/reserve): written when a
     * request's scope ends, in place of settling it there, so the request answers once its
     * transactions landed instead of waiting for them to be `confirmed`. A row holds the scope's
     * reservations (`reservations`, JSON `[{day, lamports, advance}]`, lamports as decimal strings,
     * still in `reserve_usage.reserved_lamports` and `reserve_advances.reserved_lamports`; older rows
     * have no `advance`) and what the reserve signed (`signatures`, JSON
     * `[{signature, blockhash}]`, older rows bare signatures; the first one the key); settling them to what landed deletes the row in the same transaction, so a crash
     * either leaves both (settled later) or neither.
     */
    reserveReconciliations: c.table(
      "reserve_reconciliations",
      {
        signature: c.text("signature").primaryKey(),
        accountId: c.text("account_id").notNull(),
        reservations: c.text("reservations").notNull(),
        signatures: c.text("signatures").notNull(),
        createdAt: c.text("created_at").notNull(),
      },
      (t) => [c.index("reserve_reconciliations_created").on(t.createdAt)],
    ),

    /**
     * Leases: what one API process holds while the others must wait or skip (api/src/coordination): an
     * account's transfer turn (`account:<id>`), a transfer still being made (`transfer:<id>`), a
     * background job's leadership (`job:<name>`). `holder` is a random token per acquisition;
     * `expires_at` (epoch ms) is pushed forward while the holder lives, so a killed holder's lease
     * lapses and the next taker wins it.
     */
    leases: c.table("leases", {
      name: c.text("name").primaryKey(),
      holder: c.text("holder").notNull(),
      expiresAt: c.int("expires_at").notNull(),
    }),

    /**
     * Fixed one-minute windows of the rate limits (api/src/coordination/rate-window.ts),
     * one row per key (`key:<api key id>`, `relay:<agent id>`, `auth:<client address>`), so every
     * API process counts against the same budget. `window_start` is epoch ms.
     */
    rateWindows: c.table("rate_windows", {
      key: c.text("key").primaryKey(),
      windowStart: c.int("window_start").notNull(),
      count: c.int("count").notNull(),
    }),

    /**
     * One-time links the operator hands out to register an account's first passkey (the dashboard,
     * api/src/dashboard-auth): only the SHA-256 of the `enr_...` token is kept. Spent on use; issuing
     * a new link for the account spends the earlier ones.
     */
    enrollmentTokens: c.table(
      "enrollment_tokens",
      {
        id: c.text("id").primaryKey(),
        accountId: c.text("account_id").notNull(),
        tokenHash: c.text("token_hash").notNull(),
        createdAt: c.text("created_at").notNull(),
        expiresAt: c.text("expires_at").notNull(),
        spentAt: c.text("spent_at"),
      },
      (t) => [
        c.uniqueIndex("enrollment_tokens_hash").on(t.tokenHash),
        c.index("enrollment_tokens_account").on(t.accountId),
      ],
    ),

    /**
     * An account's passkeys (WebAuthn credentials): the credential id and COSE public key (base64url),
     * the signature counter, and `wrapped_secret`, the account's confidential secret encrypted in the
     * browser under a key only the passkey's PRF output gives: opaque to the service.
     */
    passkeys: c.table(
      "passkeys",
      {
        id: c.text("id").primaryKey(),
        accountId: c.text("account_id").notNull(),
        credentialId: c.text("credential_id").notNull(),
        publicKey: c.text("public_key").notNull(),
        counter: c.int("counter").notNull().default(0),
        /** JSON array of the transports the authenticator reported. */
        transports: c.text("transports").notNull().default("[]"),
        name: c.text("name").notNull(),
        createdAt: c.text("created_at").notNull(),
        lastUsedAt: c.text("last_used_at"),
        revokedAt: c.text("revoked_at"),
        wrappedSecret: c.text("wrapped_secret"),
      },
      (t) => [
        c.uniqueIndex("passkeys_credential").on(t.credentialId),
        c.index("passkeys_account").on(t.accountId),
      ],
    ),

    /**
     * Dashboard sessions: only the SHA-256 of the `sess_...` cookie value is kept (the CSRF token is
     * derived from the cookie value, so nothing here signs a request). A session ends at
     * `idle_expires_at` (pushed forward on use), at `expires_at`, or when `ended_at` is set.
     */
    sessions: c.table(
      "sessions",
      {
        id: c.text("id").primaryKey(),
        tokenHash: c.text("token_hash").notNull(),
        accountId: c.text("account_id").notNull(),
        passkeyId: c.text("passkey_id").notNull(),
        createdAt: c.text("created_at").notNull(),
        lastSeenAt: c.text("last_seen_at").notNull(),
        idleExpiresAt: c.text("idle_expires_at").notNull(),
        expiresAt: c.text("expires_at").notNull(),
        endedAt: c.text("ended_at"),
        /** Why it ended: signed_out, signed_out_everywhere, passkey_revoked. */
        endReason: c.text("end_reason"),
      },
      (t) => [
        c.uniqueIndex("sessions_token_hash").on(t.tokenHash),
        c.index("sessions_account").on(t.accountId),
        c.index("sessions_passkey").on(t.passkeyId),
      ],
    ),

    /**
     * WebAuthn challenges, one use each: `purpose` sign_in (discoverable, no account yet) or
     * enrollment (bound to `enrollment_token_id`). Base64url, a nonce: not a secret.
     */
    webauthnChallenges: c.table(
      "webauthn_challenges",
      {
        id: c.text("id").primaryKey(),
        purpose: c.text("purpose").notNull(),
        challenge: c.text("challenge").notNull(),
        enrollmentTokenId: c.text("enrollment_token_id"),
        createdAt: c.text("created_at").notNull(),
        expiresAt: c.text("expires_at").notNull(),
        usedAt: c.text("used_at"),
      },
      (t) => [
        c.uniqueIndex("webauthn_challenges_challenge").on(t.challenge),
        c.index("webauthn_challenges_expires").on(t.expiresAt),
      ],
    ),

    /**
     * x402 payments the facilitator settles for the service's accounts (api/src/x402): one row per
     * payment transaction, keyed by the SHA-256 of its message bytes (hex), so the same payment
     * presented again, to any API process, finds its row and is refused. Written BEFORE the reserve
     * signs (`sending`; the signature it will land under follows once signed): of two requests
     * presenting one payment at once, one sends it. `settled` once it landed and moved the payment
     * (`transfer_id`: the received transfer's row of a wallet's payment, or the agent's own
     * transfer); `failed` when it landed without paying. A payment that cannot land any more leaves
     * no row.
     */
    x402Settlements: c.table(
      "x402_settlements",
      {
        messageHash: c.text("message_hash").primaryKey(),
        /** The account paid (`payTo`), whose key settled it and whose reserve budget paid the fee. */
        accountId: c.text("account_id").notNull(),
        network: c.text("network").notNull(),
        /** The transaction's signature (the fee reserve's), once the reserve signed it. */
        signature: c.text("signature"),
        /** Who paid: the token authority (a wallet, or an agent's PDA). */
        payer: c.text("payer").notNull(),
        /** Which accepted shape it had (api/src/x402/payment-shapes.ts). */
        shape: c.text("shape").notNull(),
        status: c.text("status").notNull(),
        transferId: c.text("transfer_id"),
        createdAt: c.text("created_at").notNull(),
        settledAt: c.text("settled_at"),
      },
      (t) => [
        c.uniqueIndex("x402_settlements_signature").on(t.signature),
        c.index("x402_settlements_account_created").on(t.accountId, t.createdAt),
      ],
    ),

    /** Service facts: schema owner, the cluster instance the rows belong to. */
    serviceMeta: c.table("service_meta", {
      key: c.text("key").primaryKey(),
      value: c.text("value").notNull(),
    }),
  };
}

export type Tables = ReturnType<typeof defineTables>;

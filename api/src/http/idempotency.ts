/**
 * `Idempotency-Key` on POSTs (DESIGN section 7). Per account, for 24 h (IDEMPOTENCY_TTL_MS; expired
 * rows are deleted when their key is used again and by a sweep every 15 min, sweep-idempotency.ts):
 * - the first request claims the key (a unique row, state `in_progress`) and holds it under a lease
 *   (`lease_expires_at`, IDEMPOTENCY_LEASE_SECONDS, renewed while the request runs);
 * - its answer is stored (2xx and 4xx, and any answer once the request bound a resource that a
 *   retry must not make again); a 5xx of a request that created nothing releases the key so a retry
 *   can run again; a 5xx of a resumable use case (agent creation) keeps the bound resource and
 *   gives the lease up, so the retry finishes that resource instead of replaying the 5xx;
 * - the same key with the same request replays the stored answer (`Idempotent-Replayed: true`);
 *   a secret shown once (`shownOnce` in the route table) is removed before the answer is stored,
 *   so a replay carries `null` there and `secret_already_delivered: true`;
 * - the same key with a different request is `409 idempotency_key_reused` (idempotency-fingerprint.ts);
 * - a duplicate arriving while the first still runs waits for its answer (up to `waitMs`, woken at
 *   once by a holder in this process, else reading the row with a backoff up to 1 s), then gets
 *   `409 idempotency_in_progress`. It never runs the use case a second time, so twenty concurrent
 *   duplicates make one transfer.
 * A claim whose lease ran out belongs to a process that died (or stalled for a whole lease): the
 * next request with that key takes it over (one winner, by a guarded update) and recovers it
 * (recover-idempotency.ts): without a bound resource the request simply runs; with one, the answer
 * is rebuilt from that resource, or the use case resumes it.
 */

import { nowIso } from "@cpay/ledger/ids";
import { and, eq, inArray, isNull, lt, or } from "drizzle-orm";
import { ApiError } from "../core/api-error";
import type { IdempotencyClaim } from "../core/idempotency-claim";
import type { ServiceContext } from "../core/service-context";
import { masterKeyring, openSecretUnderAny, sealSecret } from "../core/vault-crypto";
import { recoverBoundResource } from "./recover-idempotency";

export const IDEMPOTENCY_TTL_MS = 24 * 3600 * 1000;
/** Default of IDEMPOTENCY_LEASE_SECONDS: how long a claim outlives its last sign of life. */
export const DEFAULT_IDEMPOTENCY_LEASE_MS = 30_000;
const DEFAULT_WAIT_MS = 60_000;
const MAX_POLL_MS = 1_000;
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

export interface StoredAnswer {
  readonly status: number;
  readonly body: unknown;
  readonly replayed: boolean;
}

export interface IdempotentRequest {
  readonly accountId: string;
  readonly key: string;
  /** `requestFingerprint(...)` of the request (an HMAC: never an unkeyed hash of the body). */
  readonly fingerprint: string;
  /**
   * The same request's fingerprints under the previous master keys (a rotation in progress): a
   * retry of a request first made before the rotation is still the same request.
   */
  readonly earlierFingerprints?: readonly string[];
  readonly waitMs?: number;
  /** The body as it may be stored and replayed: without what is shown once. */
  readonly redact?: (body: unknown) => unknown;
}

type Work = (claim: IdempotencyClaim) => Promise<{ status: number; body: unknown }>;

/** Validates the header value; `400 invalid_request` naming the header otherwise. */
export function checkIdempotencyKey(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (!KEY_PATTERN.test(value)) {
    throw new ApiError(
      "invalid_request",
      "Idempotency-Key must be 1 to 255 printable ASCII characters without spaces",
      "idempotency-key",
    );
  }
  return value;
}

/**
 * Runs `work` at most once per (account, key): returns its answer, or the stored answer of the
 * request that ran it.
 */
export async function runIdempotently(
  service: ServiceContext,
  input: IdempotentRequest,
  work: Work,
): Promise<StoredAnswer> {
  const { idempotencyKeys } = service.db.tables;
  const where = whereKey(service, input);
  const claimed = await service.db.transaction(async (tx) => {
    const now = nowIso();
    // An expired record frees its key.
    await tx.delete(idempotencyKeys).where(and(where, lt(idempotencyKeys.expiresAt, now)));
    const inserted = await tx
      .insert(idempotencyKeys)
      .values({
        accountId: input.accountId,
        key: input.key,
        requestHash: input.fingerprint,
        state: "in_progress",
        createdAt: now,
        expiresAt: new Date(Date.now() + IDEMPOTENCY_TTL_MS).toISOString(),
        leaseExpiresAt: leaseEnd(service),
      })
      .onConflictDoNothing()
      .returning();
    return inserted.length === 1;
  });
  if (!claimed) return awaitOrRecover(service, input, work);
  return runAsHolder(service, input, work, null);
}

/** Runs the use case holding the claim: renews its lease, stores (or releases) its answer. */
async function runAsHolder(
  service: ServiceContext,
  input: IdempotentRequest,
  work: Work,
  resumedResourceId: string | null,
): Promise<StoredAnswer> {
  const { idempotencyKeys } = service.db.tables;
  const where = whereKey(service, input);
  const lease = holdLease(service, input);
  let resumable = resumedResourceId !== null;
  const claim: IdempotencyClaim = {
    resumedResourceId,
    bindResource: (resourceId, options) =>
      service.db.transaction((tx) => claim.bindResourceIn(tx, resourceId, options)),
    bindResourceIn: async (tx, resourceId, options) => {
      await tx.update(idempotencyKeys).set({ resourceId }).where(where);
      resumable = options?.resumable ?? false;
    },
  };
  try {
    const answer = await work(claim);
    await store(service, input, answer.status, input.redact ? input.redact(answer.body) : answer.body);
    return { ...answer, replayed: false };
  } catch (error) {
    // Whether a resource is bound is read back, not remembered: a binding written inside a
    // transaction that then rolled back never happened.
    const bound = await isBound(service, input);
    const callersFault = error instanceof ApiError && error.status < 500 && error.code !== "rate_limited";
    if (callersFault || (bound && !resumable)) {
      // Kept (a retry replays it) when it is the caller's fault, and whenever a resource was bound
      // whose use case cannot resume: the request may have created it, so a retry must never run
      // the use case again.
      const answer =
        error instanceof ApiError ? error : new ApiError("internal_error", "an unexpected error occurred");
      await store(service, input, answer.status, errorBody(answer));
    } else if (bound) {
      // Resumable: the resource stays bound and the lease is given up, so the retry takes the claim
      // over at once and finishes that resource.
      await service.db.transaction((tx) =>
        tx
          .update(idempotencyKeys)
          .set({ leaseExpiresAt: new Date(0).toISOString() })
          .where(and(where, eq(idempotencyKeys.state, "in_progress")))
          .then(() => undefined),
      );
    } else {
      // Nothing was created: the key is released for a clean retry.
      await service.db.transaction((tx) =>
        tx
          .delete(idempotencyKeys)
          .where(where)
          .then(() => undefined),
      );
    }
    throw error;
  } finally {
    lease.stop();
    wakeWaiters(input);
  }
}

/** True when the key's record names a resource (the use case bound one and it was committed). */
async function isBound(service: ServiceContext, input: IdempotentRequest): Promise<boolean> {
  const { idempotencyKeys } = service.db.tables;
  const [row] = await service.db.read((q) =>
    q
      .select({ resourceId: idempotencyKeys.resourceId })
      .from(idempotencyKeys)
      .where(whereKey(service, input)),
  );
  return row?.resourceId !== null && row?.resourceId !== undefined;
}

/** Deletes every expired idempotency record (sweep-idempotency.ts runs it); returns how many. */
export async function sweepExpiredIdempotencyKeys(service: ServiceContext): Promise<number> {
  const { idempotencyKeys } = service.db.tables;
  const deleted = await service.db.transaction((tx) =>
    tx
      .delete(idempotencyKeys)
      .where(lt(idempotencyKeys.expiresAt, nowIso()))
      .returning({ key: idempotencyKeys.key }),
  );
  return deleted.length;
}

/** A duplicate: waits for the holder's answer, or takes over a claim whose holder died. */
async function awaitOrRecover(service: ServiceContext, input: IdempotentRequest, work: Work) {
  const { idempotencyKeys } = service.db.tables;
  const where = whereKey(service, input);
  const deadline = Date.now() + (input.waitMs ?? DEFAULT_WAIT_MS);
  let pause = 50;
  for (;;) {
    const [row] = await service.db.read((db) => db.select().from(idempotencyKeys).where(where));
    if (row === undefined) {
      // The first request failed server-side and released the key: this one may not run in its place
      // (it was a duplicate), so it reports the conflict and the caller retries.
      throw new ApiError(
        "idempotency_in_progress",
        "the original request with this Idempotency-Key did not finish; retry",
        "idempotency-key",
      );
    }
    if (!fingerprintsOf(input).includes(row.requestHash)) {
      throw new ApiError(
        "idempotency_key_reused",
        "this Idempotency-Key was used with a different request in the last 24 h",
        "idempotency-key",
      );
    }
    if (row.state === "completed") {
      return {
        status: row.responseStatus ?? 200,
        body: openAnswer(service, row.accountId, row.key, row.responseBody),
        replayed: true,
      };
    }
    const leaseEndsAt =
      row.leaseExpiresAt ?? new Date(Date.parse(row.createdAt) + leaseMs(service)).toISOString();
    if (leaseEndsAt < nowIso() && (await takeOver(service, input))) {
      return recover(service, input, work, row.resourceId);
    }
    if (Date.now() > deadline) {
      throw new ApiError(
        "idempotency_in_progress",
        "a request with this Idempotency-Key is still running; retry shortly",
        "idempotency-key",
      );
    }
    await waitForHolder(input, Math.min(pause, Math.max(deadline - Date.now(), 0) + 1));
    pause = Math.min(pause * 2, MAX_POLL_MS);
  }
}

/**
 * Claims an abandoned row: only the one request whose guarded update matches it wins. A row
 * written before leases existed has none; its lease is counted from its creation.
 */
async function takeOver(service: ServiceContext, input: IdempotentRequest): Promise<boolean> {
  const { idempotencyKeys } = service.db.tables;
  const now = nowIso();
  const taken = await service.db.transaction((tx) =>
    tx
      .update(idempotencyKeys)
      .set({ leaseExpiresAt: leaseEnd(service) })
      .where(
        and(
          whereKey(service, input),
          eq(idempotencyKeys.state, "in_progress"),
          inArray(idempotencyKeys.requestHash, fingerprintsOf(input)),
          or(
            lt(idempotencyKeys.leaseExpiresAt, now),
            and(
              isNull(idempotencyKeys.leaseExpiresAt),
              lt(idempotencyKeys.createdAt, new Date(Date.now() - leaseMs(service)).toISOString()),
            ),
          ),
        ),
      )
      .returning({ key: idempotencyKeys.key }),
  );
  return taken.length === 1;
}

/** After a take-over: run afresh, resume the bound resource, or answer from it. */
async function recover(
  service: ServiceContext,
  input: IdempotentRequest,
  work: Work,
  resourceId: string | null,
): Promise<StoredAnswer> {
  if (resourceId === null) return runAsHolder(service, input, work, null);
  const recovery = await recoverBoundResource(service, input.accountId, resourceId);
  if (recovery.kind === "rerun")
    return runAsHolder(service, input, work, recovery.resume ? resourceId : null);
  if (recovery.final) {
    const body = input.redact ? input.redact(recovery.body) : recovery.body;
    await store(service, input, recovery.status, body);
  } else {
    // Not settled yet (a transfer still being reconciled): answered, not stored; the next retry
    // rebuilds the answer again.
    const { idempotencyKeys } = service.db.tables;
    await service.db.transaction((tx) =>
      tx
        .update(idempotencyKeys)
        .set({ leaseExpiresAt: new Date(0).toISOString() })
        .where(and(whereKey(service, input), eq(idempotencyKeys.state, "in_progress")))
        .then(() => undefined),
    );
  }
  wakeWaiters(input);
  return { status: recovery.status, body: recovery.body, replayed: true };
}

async function store(
  service: ServiceContext,
  owner: { readonly accountId: string; readonly key: string },
  status: number,
  body: unknown,
) {
  const { idempotencyKeys } = service.db.tables;
  await service.db.transaction((tx) =>
    tx
      .update(idempotencyKeys)
      .set({
        state: "completed",
        responseStatus: status,
        responseBody: sealAnswer(service, owner, body),
        leaseExpiresAt: null,
      })
      .where(whereKey(service, owner))
      .then(() => undefined),
  );
}

function errorBody(error: ApiError) {
  return {
    error: { code: error.code, message: error.message, ...(error.param ? { param: error.param } : {}) },
  };
}

function whereKey(service: ServiceContext, owner: { readonly accountId: string; readonly key: string }) {
  const { idempotencyKeys } = service.db.tables;
  return and(eq(idempotencyKeys.accountId, owner.accountId), eq(idempotencyKeys.key, owner.key));
}

function leaseMs(service: ServiceContext): number {
  return service.config.idempotencyLeaseMs;
}

function leaseEnd(service: ServiceContext): string {
  return new Date(Date.now() + leaseMs(service)).toISOString();
}

/** Renews the claim's lease every third of it while the use case runs. */
function holdLease(service: ServiceContext, owner: { readonly accountId: string; readonly key: string }) {
  const { idempotencyKeys } = service.db.tables;
  const renew = () =>
    service.db
      .transaction((tx) =>
        tx
          .update(idempotencyKeys)
          .set({ leaseExpiresAt: leaseEnd(service) })
          .where(and(whereKey(service, owner), eq(idempotencyKeys.state, "in_progress")))
          .then(() => undefined),
      )
      .catch(() => {
        // A missed renewal only shortens the lease; the next one (or the answer) follows.
      });
  const timer = setInterval(renew, Math.max(Math.floor(leaseMs(service) / 3), 10));
  timer.unref();
  return { stop: () => clearInterval(timer) };
}

/** Duplicates waiting in this process, woken as soon as the holder here stores or releases. */
const waiters = new Map<string, Set<() => void>>();

/** Every fingerprint the request is known by: the current key's first. */
function fingerprintsOf(input: IdempotentRequest): string[] {
  return [input.fingerprint, ...(input.earlierFingerprints ?? [])];
}

function waiterKey(owner: { readonly accountId: string; readonly key: string }): string {
  return `${owner.accountId}\0${owner.key}`;
}

function waitForHolder(owner: { readonly accountId: string; readonly key: string }, ms: number) {
  return new Promise<void>((resolve) => {
    const id = waiterKey(owner);
    const set = waiters.get(id) ?? new Set();
    waiters.set(id, set);
    const done = () => {
      clearTimeout(timer);
      set.delete(done);
      if (set.size === 0 && waiters.get(id) === set) waiters.delete(id);
      resolve();
    };
    const timer = setTimeout(done, ms);
    set.add(done);
  });
}

function wakeWaiters(owner: { readonly accountId: string; readonly key: string }): void {
  for (const wake of [...(waiters.get(waiterKey(owner)) ?? [])]) wake();
}

/**
 * Stored answers are sealed under the master key, bound to their (account, key). A secret shown
 * once never reaches them (`redact`); the seal keeps the rest (ids, statuses) out of plain tables.
 */
function sealAnswer(
  service: ServiceContext,
  owner: { readonly accountId: string; readonly key: string },
  body: unknown,
): string {
  const bytes = new TextEncoder().encode(JSON.stringify(body));
  return sealSecret(service.config.masterKey, owner.accountId, `idempotency:${owner.key}`, bytes);
}

function openAnswer(service: ServiceContext, accountId: string, key: string, sealed: string | null): unknown {
  if (sealed === null) return null;
  // Sealed under the key current when it was stored, which a rotation may have made a previous one.
  const ring = masterKeyring(service.config.masterKey, service.config.previousMasterKeys);
  const bytes = openSecretUnderAny(ring, accountId, `idempotency:${key}`, sealed);
  return JSON.parse(new TextDecoder().decode(bytes));
}

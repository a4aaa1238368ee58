/**
 * `Idempotency-Key` on POSTs (DESIGN section 7). Per account, for 24 h:
 * - the first request claims the key (a unique row, state `in_progress`) and runs;
 * - its answer is stored (2xx and 4xx, and any answer once the request bound a resource); a 5xx of
 *   a request that created nothing releases the key so a retry can run again;
 * - the same key with the same request replays the stored answer (`Idempotent-Replayed: true`);
 * - the same key with a different method, path or body is `409 idempotency_key_reused`;
 * - a duplicate arriving while the first still runs waits for its answer (up to `waitMs`), then
 *   gets `409 idempotency_in_progress`. It never runs the use case a second time, so twenty
 *   concurrent duplicates make one transfer.
 * A claim also records the resource it creates (`resource_id`) before any chain submission, so
 * after a crash the recovery (recover-idempotency.ts) can finish the record from that resource.
 */
import { createHash } from "node:crypto";
import { and, eq, lt } from "drizzle-orm";
import { nowIso } from "../ids";
import type { ServiceContext } from "../service-context";
import { openSecret, sealSecret } from "../vault/vault";
import { ApiError } from "./api-error";

export const IDEMPOTENCY_TTL_MS = 24 * 3600 * 1000;
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

export interface StoredAnswer {
  readonly status: number;
  readonly body: unknown;
  readonly replayed: boolean;
}

export interface IdempotencyClaim {
  /** Names the resource this request creates, before it touches the chain. */
  bindResource(resourceId: string): Promise<void>;
}

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

/** SHA-256 over what makes two requests "the same": method, path and the parsed body. */
export function requestFingerprint(method: string, path: string, body: unknown): string {
  return createHash("sha256")
    .update(`${method} ${path}\n${canonicalJson(body)}`)
    .digest("hex");
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, inner]) => inner !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, inner]) => `${JSON.stringify(key)}:${canonicalJson(inner)}`).join(",")}}`;
  }
  return JSON.stringify(value ?? null);
}

/**
 * Runs `work` at most once per (account, key): returns its answer, or the stored answer of the
 * request that ran it.
 */
export async function runIdempotently(
  service: ServiceContext,
  input: {
    readonly accountId: string;
    readonly key: string;
    readonly fingerprint: string;
    readonly waitMs?: number;
  },
  work: (claim: IdempotencyClaim) => Promise<{ status: number; body: unknown }>,
): Promise<StoredAnswer> {
  const { idempotencyKeys } = service.db.tables;
  const where = and(eq(idempotencyKeys.accountId, input.accountId), eq(idempotencyKeys.key, input.key));
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
      })
      .onConflictDoNothing()
      .returning();
    return inserted.length === 1;
  });
  if (!claimed) return awaitStoredAnswer(service, where, input);

  let bound = false;
  const claim: IdempotencyClaim = {
    bindResource: async (resourceId) => {
      bound = true;
      await service.db.transaction((tx) =>
        tx
          .update(idempotencyKeys)
          .set({ resourceId })
          .where(where)
          .then(() => undefined),
      );
    },
  };
  try {
    const answer = await work(claim);
    await store(service, input, where, answer.status, answer.body);
    return { ...answer, replayed: false };
  } catch (error) {
    // The answer is kept (a retry replays it) when it is the caller's fault, and whenever a resource
    // was bound: the request may have created it, so a retry must never run the use case again.
    // Otherwise (a failure before anything was created) the key is released for a clean retry.
    const keep = bound || (error instanceof ApiError && error.status < 500 && error.code !== "rate_limited");
    if (keep) {
      const answer =
        error instanceof ApiError ? error : new ApiError("internal_error", "an unexpected error occurred");
      const body = {
        error: {
          code: answer.code,
          message: answer.message,
          ...(answer.param ? { param: answer.param } : {}),
        },
      };
      await store(service, input, where, answer.status, body);
    } else {
      await service.db.transaction((tx) =>
        tx
          .delete(idempotencyKeys)
          .where(where)
          .then(() => undefined),
      );
    }
    throw error;
  }
}

async function store(
  service: ServiceContext,
  owner: { readonly accountId: string; readonly key: string },
  where: ReturnType<typeof and>,
  status: number,
  body: unknown,
) {
  const { idempotencyKeys } = service.db.tables;
  await service.db.transaction((tx) =>
    tx
      .update(idempotencyKeys)
      .set({ state: "completed", responseStatus: status, responseBody: sealAnswer(service, owner, body) })
      .where(where)
      .then(() => undefined),
  );
}

async function awaitStoredAnswer(
  service: ServiceContext,
  where: ReturnType<typeof and>,
  input: { readonly fingerprint: string; readonly waitMs?: number },
): Promise<StoredAnswer> {
  const { idempotencyKeys } = service.db.tables;
  const deadline = Date.now() + (input.waitMs ?? 60_000);
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
    if (row.requestHash !== input.fingerprint) {
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
    if (Date.now() > deadline) {
      throw new ApiError(
        "idempotency_in_progress",
        "a request with this Idempotency-Key is still running; retry shortly",
        "idempotency-key",
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Stored answers are sealed under the master key, bound to their (account, key): an answer can
 * hold something shown once (a webhook secret), which must never sit in a table in plaintext.
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
  const bytes = openSecret(service.config.masterKey, accountId, `idempotency:${key}`, sealed);
  return JSON.parse(new TextDecoder().decode(bytes));
}

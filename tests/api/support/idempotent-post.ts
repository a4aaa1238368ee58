/**
 * A POST under an `Idempotency-Key`, sent raw so a suite sees what the typed client hides: the
 * status, the `Idempotent-Replayed` header and the body exactly as it came back.
 */
import type { ApiWorld } from "../../support/api-world";

export interface IdempotentAnswer {
  readonly status: number;
  /** The `Idempotent-Replayed` header: `true` on a replayed answer, null on a fresh one. */
  readonly replayed: string | null;
  readonly body: Record<string, unknown>;
}

export async function postWithIdempotencyKey(
  world: ApiWorld,
  request: { readonly apiKey: string; readonly path: string; readonly key: string; readonly body: unknown },
): Promise<IdempotentAnswer> {
  const response = await world.fetch(request.path, {
    method: "POST",
    key: request.apiKey,
    headers: { "content-type": "application/json", "idempotency-key": request.key },
    body: JSON.stringify(request.body),
  });
  return {
    status: response.status,
    replayed: response.headers.get("idempotent-replayed"),
    body: (await response.json()) as Record<string, unknown>,
  };
}

/**
 * The asset of a transfer request: a symbol the service moves (`USDG`), matched case-insensitively
 * against the service's asset table. Anything else is `400 unsupported_asset` naming `asset`.
 */
import type { AssetInfo } from "@cpay/sdk";
import { ApiError } from "../core/api-error";
import type { ServiceContext } from "../core/service-context";

export interface ResolvedAsset extends AssetInfo {
  /** The symbol as the service spells it (`USDG`). */
  readonly symbol: string;
}

/** The asset named by `symbol` (any case), or `400 unsupported_asset`. */
export function resolveAsset(service: ServiceContext, symbol: string): ResolvedAsset {
  const wanted = symbol.trim().toUpperCase();
  for (const [known, info] of Object.entries(service.assets)) {
    if (known.toUpperCase() === wanted) return { symbol: known, ...info };
  }
  throw new ApiError(
    "unsupported_asset",
    `asset must be one of: ${Object.keys(service.assets).join(", ")}`,
    "asset",
  );
}

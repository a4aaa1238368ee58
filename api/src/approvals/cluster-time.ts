/**
 * The approval window is judged by the cluster's clock (the Clock sysvar), because that is the
 * clock the program refuses approvals and allows closes by: the service's own clock may differ, and
 * a decision the API allowed must not be one the program refuses.
 */
import { clusterUnixTime } from "@cpay/sdk/agent-confidential";
import type { ServiceContext } from "../core/service-context";

/** The cluster's current time as the service writes timestamps (ISO 8601 UTC, milliseconds). */
export async function clusterNowIso(service: ServiceContext): Promise<string> {
  return new Date(Number(await clusterUnixTime(service.chain)) * 1000).toISOString();
}

/**
 * Whether the window ending at `expiresAt` has passed: from `expires_at` on, as the program
 * decides (`now >= expires_at` is expired). Timestamps of one format compare as strings.
 */
export async function windowHasPassed(service: ServiceContext, expiresAt: string): Promise<boolean> {
  return (await clusterNowIso(service)) >= expiresAt;
}

/**
 * The passkey the enrolment test registered, kept beside the world file so every later test's
 * fresh authenticator holds the same credential (as a user's phone would) and signs in with it.
 * It is saved again after each test that used it: the server refuses a signature counter that went
 * backwards (a cloned authenticator), so the next test must start from the latest counter.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { VirtualCredential } from "./virtual-authenticator";
import { worldFile } from "./world";

const file = () => join(dirname(worldFile()), "passkey.json");

export function savePasskey(credential: VirtualCredential): void {
  writeFileSync(file(), JSON.stringify(credential), { mode: 0o600 });
}

export function hasSavedPasskey(): boolean {
  return existsSync(file());
}

export function savedPasskey(): VirtualCredential {
  if (!existsSync(file()))
    throw new Error("no enrolled passkey: the enrol project runs first (playwright.config.ts)");
  return JSON.parse(readFileSync(file(), "utf8")) as VirtualCredential;
}

/**
 * The app's state: the session (from the server), the account, and the unlocked keys. The unlocked
 * secret lives in this module's memory only: never in localStorage, sessionStorage, a cookie or a
 * request. Reloading the page or signing out forgets it.
 */
import type { ViewingKeys } from "@cpay/sdk/sealed";
import { useEffect, useState } from "preact/hooks";
import { setCsrfToken, setEnvironment } from "./api/client";
import type { Account, SessionView } from "./api/types";

export interface Unlocked {
  /** The export-format secret, kept only to wrap it with the passkey on request. */
  readonly exported: string;
  readonly keys: ViewingKeys;
}

export interface AppState {
  /** False until the first session check answered. */
  readonly ready: boolean;
  readonly session: SessionView | null;
  readonly account: Account | null;
  readonly unlocked: Unlocked | null;
  /** Shown on the sign-in page: why the app came back there. */
  readonly notice: string | null;
}

let state: AppState = { ready: false, session: null, account: null, unlocked: null, notice: null };
const listeners = new Set<() => void>();

export function getState(): AppState {
  return state;
}

export function update(change: Partial<AppState>): void {
  state = { ...state, ...change };
  if ("session" in change) {
    setCsrfToken(state.session?.csrf_token ?? null);
    // Signed in, every request names the session's environment; signed out, the sign-in and
    // enrollment steps name theirs with each call.
    setEnvironment(state.session?.environment ?? null);
  }
  for (const listener of listeners) listener();
}

/** Forgets the session and the keys (sign-out, or the server said the session is gone). */
export function signedOut(notice: string | null): void {
  update({ session: null, account: null, unlocked: null, notice });
}

export function useAppState(): AppState {
  const [, setTick] = useState(0);
  useEffect(() => {
    const listener = () => setTick((tick) => tick + 1);
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
    };
  }, []);
  return state;
}

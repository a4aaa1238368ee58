/**
 * The unlock step, shown on every page while the account is locked: paste the secret, load it from a
 * file, or (when this passkey holds a wrapped copy) unlock with the passkey. After a manual unlock it
 * offers to wrap the secret with the passkey so the next unlock is one touch.
 */
import { useState } from "preact/hooks";
import { useAppState } from "../state";
import { unlockWithPasskey, unlockWithSecret, wrapWithPasskey } from "../unlock";
import { ActionForm } from "./action-form";
import { ActionFeedback, ErrorMessage, Progress } from "./feedback";
import { TitledSection } from "./titled-section";
import { useAction } from "./use-action";

export function UnlockPanel() {
  const { session } = useAppState();
  const [secret, setSecret] = useState("");
  const { busy, error, run } = useAction();
  /** Unlocks with `unlock`; the pasted secret is cleared once that worked. */
  const unlockBy = (label: string, unlock: () => Promise<unknown>) =>
    run(label, async () => {
      await unlock();
      setSecret("");
    });

  return (
    <TitledSection id="unlock" title="Unlock your amounts" class="panel unlock">
      <p>
        Amounts and memos are encrypted; only your account secret reads them, here in this browser. It is
        never sent to the service and is forgotten when you close or reload the page.
      </p>
      <ActionForm onSubmit={() => unlockBy("Unlocking…", () => unlockWithSecret(secret))}>
        <label for="account-secret">Account secret</label>
        <input
          id="account-secret"
          class="secret"
          type="text"
          autocomplete="off"
          spellcheck={false}
          value={secret}
          onInput={(event) => setSecret(event.currentTarget.value)}
        />
        <label for="secret-file">Or load it from a file</label>
        <input
          id="secret-file"
          type="file"
          accept=".txt,text/plain"
          onChange={async (event) => {
            const file = event.currentTarget.files?.[0];
            if (file !== undefined) setSecret((await file.text()).trim());
          }}
        />
        <div class="actions">
          <button type="submit" class="primary" disabled={busy !== null || secret.trim() === ""}>
            Unlock
          </button>
          {session?.wrapped_secret != null ? (
            <button
              type="button"
              disabled={busy !== null}
              onClick={() => void unlockBy("Waiting for the passkey…", unlockWithPasskey)}
            >
              Unlock with passkey
            </button>
          ) : null}
        </div>
      </ActionForm>
      <ActionFeedback busy={busy} error={error} />
    </TitledSection>
  );
}

/** After a manual unlock: offer to keep the secret wrapped by this passkey (once per page life). */
export function WrapOffer() {
  const { session, unlocked } = useAppState();
  const [state, setState] = useState<"offer" | "busy" | "done" | "dismissed">("offer");
  const [error, setError] = useState<unknown>(null);
  if (session === null || unlocked === null || state === "dismissed") return null;
  if (session.wrapped_secret !== null && state !== "done") return null;
  if (state === "done") {
    return (
      <p class="notice" role="status">
        Your secret is now wrapped by this passkey: next time, unlock with the passkey.
      </p>
    );
  }
  return (
    <TitledSection id="wrap" title="Unlock with your passkey next time?" class="panel">
      <p>
        The secret is encrypted here with a key only your passkey can produce (WebAuthn PRF); the service
        stores the encrypted copy and cannot open it.
      </p>
      <div class="actions">
        <button
          type="button"
          class="primary"
          disabled={state === "busy"}
          onClick={async () => {
            setState("busy");
            setError(null);
            try {
              await wrapWithPasskey();
              setState("done");
            } catch (failure) {
              setError(failure);
              setState("offer");
            }
          }}
        >
          Wrap with passkey
        </button>
        <button type="button" onClick={() => setState("dismissed")}>
          Not now
        </button>
      </div>
      {state === "busy" ? <Progress label="Waiting for the passkey…" /> : null}
      <ErrorMessage error={error} />
    </TitledSection>
  );
}

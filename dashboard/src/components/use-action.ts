import { useState } from "preact/hooks";

/**
 * A user action's state: what it says while it runs (`busy`, null when idle) and how it last failed
 * (`error`, for ErrorMessage). `run(label, action)` clears the last error, is busy with `label`
 * while `action` runs, keeps a failure as `error` instead of throwing it, and is idle again however
 * it ends. `setError` shows a refusal found before anything was sent (a missing field).
 */
export function useAction() {
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const run = async (label: string, action: () => Promise<void>): Promise<void> => {
    setBusy(label);
    setError(null);
    try {
      await action();
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(null);
    }
  };
  return { busy, error, setError, run };
}

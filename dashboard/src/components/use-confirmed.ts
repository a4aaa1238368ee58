import { useState } from "preact/hooks";

/** A step asked once more before it runs (ConfirmStep shows the question). */
export interface ConfirmedAction<T> {
  /** What the question is about; null while nothing is asked. */
  readonly asking: T | null;
  readonly ask: (item: T) => void;
  readonly cancel: () => void;
  /** Closes the question and runs the step on its item; a failure goes to the page's `setError`. */
  readonly confirm: () => Promise<void>;
}

/**
 * Approve, reject, revoke and delete each ask for a confirmation first: `ask(item)` opens the
 * question, and only `confirm()` runs `act(item)`, after clearing the page's last error; a failure
 * becomes the page's error instead of being thrown.
 */
export function useConfirmed<T>(
  act: (item: T) => Promise<void>,
  setError: (error: unknown) => void,
): ConfirmedAction<T> {
  const [asking, setAsking] = useState<T | null>(null);
  const confirm = async () => {
    if (asking === null) return;
    setAsking(null);
    setError(null);
    try {
      await act(asking);
    } catch (failure) {
      setError(failure);
    }
  };
  return { asking, ask: setAsking, cancel: () => setAsking(null), confirm };
}

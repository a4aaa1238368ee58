/**
 * A tiny typed emitter for ClusterEvents. Listeners run synchronously, in subscription order, right
 * after the state they describe is visible (a `transaction` listener can already getTransaction it).
 * A throwing listener must not break the cluster or starve other listeners, so its error is reported
 * to `onListenerError` (default: console.error) instead of propagating into sendTransaction or the
 * slot timer.
 */
import type { ClusterEvents } from "./cluster-port";

export interface ClusterEmitter {
  on<E extends keyof ClusterEvents>(event: E, listener: ClusterEvents[E]): () => void;
  emit<E extends keyof ClusterEvents>(event: E, ...args: Parameters<ClusterEvents[E]>): void;
}

export function createClusterEmitter(
  onListenerError: (error: unknown, event: keyof ClusterEvents) => void = (error, event) =>
    console.error(`cluster ${event} listener failed`, error),
): ClusterEmitter {
  const listeners: { [E in keyof ClusterEvents]: Set<ClusterEvents[E]> } = {
    transaction: new Set(),
    slot: new Set(),
  };
  return {
    on(event, listener) {
      const set = listeners[event] as Set<typeof listener>;
      set.add(listener);
      return () => {
        set.delete(listener);
      };
    },
    emit(event, ...args) {
      for (const listener of [...listeners[event]]) {
        try {
          (listener as (...a: typeof args) => void)(...args);
        } catch (error) {
          onListenerError(error, event);
        }
      }
    },
  };
}

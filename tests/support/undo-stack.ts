/**
 * What a world must undo when it closes, newest first: each step is added as its resource is made,
 * so a start that fails half-way undoes exactly what it made. A step that fails does not stop the
 * others (a child already gone must not keep a database from being dropped).
 */
export interface UndoStack {
  add(step: () => Promise<unknown>): void;
  /** Runs every step added so far, newest first, once. */
  undo(): Promise<void>;
}

export function undoStack(): UndoStack {
  const steps: (() => Promise<unknown>)[] = [];
  return {
    add(step) {
      steps.push(step);
    },
    async undo() {
      for (let step = steps.pop(); step !== undefined; step = steps.pop())
        await step().catch(() => undefined);
    },
  };
}

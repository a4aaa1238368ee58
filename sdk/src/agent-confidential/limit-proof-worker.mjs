// Worker bootstrap: registers tsx's loader in this thread (a worker does not inherit the parent's
// loader hooks in every host, e.g. vitest's forks), then runs the TypeScript worker.
import { register } from "tsx/esm/api";

register();
await import("./limit-proof-worker.ts");

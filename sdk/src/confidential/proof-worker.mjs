// Worker bootstrap of the proof pool: registers tsx's loader in this thread (a worker does not
// inherit the parent's loader hooks in every host, e.g. vitest's forks), then runs the TypeScript
// worker, which imports the TypeScript task modules through the same loader.
import { register } from "tsx/esm/api";

register();
await import("./proof-worker.ts");

import type { IrModule } from "./ir-module";
import { globalDefinitionName, type Reachability } from "./reachability";

/**
 * Deletes function and global definitions that nothing reachable refers to (a textual
 * `globaldce` with `entrypoint` as the only export). Without it, llc would have to compile — and
 * fail on — dead i128/float helpers and the public API of a crate built without LTO.
 * Declarations are left alone: an unused `declare` costs nothing and emits nothing.
 */
export function stripUnreachable(module: IrModule, reachability: Reachability): { removed: number } {
  let removed = 0;
  module.chunks = module.chunks.filter((chunk) => {
    if (chunk.kind !== "function") return true;
    const keep = reachability.reachable.has(chunk.name);
    if (!keep) removed++;
    return keep;
  });
  for (const chunk of module.chunks) {
    if (chunk.kind !== "text") continue;
    chunk.lines = chunk.lines.filter((line) => {
      const name = globalDefinitionName(line);
      const keep = name === undefined || reachability.reachable.has(name);
      if (!keep) removed++;
      return keep;
    });
  }
  return { removed };
}

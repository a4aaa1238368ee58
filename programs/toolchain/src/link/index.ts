import { demangle } from "../lowering/demangle";
import { fixCallxEncoding } from "./callx";
import { INSN_SIZE, STT_FUNC } from "./elf-constants";
import { layoutSections } from "./layout";
import { LinkError } from "./link-error";
import { functionKey, syscallKey } from "./murmur3";
import { readElfObject } from "./read-elf-object";
import { applyRelocations } from "./relocate";
import { checkSbpfV0 } from "./sbpf-v0-check";
import { SYSCALLS } from "./syscalls";
import { writeSharedObject } from "./write-shared-object";

export { LinkError } from "./link-error";
export { isKnownSyscall, SYSCALLS } from "./syscalls";

export interface LinkOptions {
  /** The symbol the loader enters through. */
  entry?: string;
}

export interface LinkResult {
  so: Uint8Array;
  textBytes: number;
  rodataBytes: number;
  /** Distinct syscalls the program calls, sorted. */
  syscalls: string[];
  /** Used syscalls that exist only where their feature gate is active. */
  gatedSyscalls: string[];
  callxRewritten: number;
  droppedSections: string[];
}

/**
 * Links the relocatable BPF object llc produced into an SBPF v0 shared object the Solana loader
 * accepts — the job `ld.lld` does in platform-tools, which upstream lld cannot (no BPF target).
 * Steps, each in its own file: lay out sections (refusing writable data), apply relocations
 * (syscalls stay dynamic), move callx registers into imm, check the result against the SBPF v0
 * verifier's rules and the loader's function-key collisions, serialise.
 */
export function linkProgram(object: Uint8Array, options: LinkOptions = {}): LinkResult {
  const entryName = options.entry ?? "entrypoint";
  const parsed = readElfObject(object);
  const layout = layoutSections(parsed);

  const entry = parsed.symbols.find((s) => s.name === entryName && s.type === STT_FUNC && s.shndx !== 0);
  const entryPlacement = entry ? layout.placements.get(entry.shndx) : undefined;
  if (!entry || entryPlacement?.output !== "text") {
    throw new LinkError(`no \`${entryName}\` function in the object: the program needs an entry point`);
  }
  const entryVaddr = entryPlacement.vaddr + entry.value;

  const syscalls = applyRelocations(parsed, layout);
  const callxRewritten = fixCallxEncoding(layout.text.bytes);
  const locate = functionLocator(parsed, layout);
  const callTargets = checkSbpfV0(layout.text.bytes, locate);
  checkKeyCollisions(callTargets, locate);

  const names = [...new Set(syscalls.map((s) => s.name))].sort();
  return {
    so: writeSharedObject({ layout, entry: entryVaddr, entrySize: entry.size, syscalls }),
    textBytes: layout.text.bytes.length,
    rodataBytes: layout.rodata.bytes.length,
    syscalls: names,
    gatedSyscalls: names.filter((name) => SYSCALLS[name] === "gated"),
    callxRewritten,
    droppedSections: layout.dropped,
  };
}

/**
 * The v0 loader keys every internal call target by murmur3(pc) and refuses the program if a key
 * equals a registered syscall's ("Symbol hash collision"). Astronomically rare, but it would
 * only show at deploy time, so check it here.
 */
function checkKeyCollisions(callTargets: Set<number>, locate: (pc: number) => string): void {
  const syscallKeys = new Map(Object.keys(SYSCALLS).map((name) => [syscallKey(name), name]));
  for (const pc of [...callTargets].sort((a, b) => a - b)) {
    const clash = syscallKeys.get(functionKey(pc));
    if (clash) {
      throw new LinkError(
        `function ${locate(pc)} at instruction ${pc} hashes to the same key as syscall \`${clash}\`; ` +
          "the loader would reject the program. Change the code layout (e.g. reorder functions) and rebuild.",
      );
    }
  }
}

function functionLocator(
  object: ReturnType<typeof readElfObject>,
  layout: ReturnType<typeof layoutSections>,
) {
  const functions = object.symbols
    .filter((s) => s.type === STT_FUNC && layout.placements.get(s.shndx)?.output === "text")
    .map((s) => {
      const start = ((layout.placements.get(s.shndx)?.vaddr ?? 0) + s.value - layout.text.offset) / INSN_SIZE;
      return { name: s.name, start, end: start + Math.max(1, s.size / INSN_SIZE) };
    });
  return (pc: number) => {
    const fn = functions.find((f) => pc >= f.start && pc < f.end);
    return fn ? `\`${demangle(fn.name)}\`` : `.text`;
  };
}

import { demangle } from "../lowering/demangle";
import {
  INSN_SIZE,
  MM_PROGRAM_START,
  OPCODE_CALL,
  OPCODE_LDDW,
  R_BPF_64_32,
  R_BPF_64_64,
  R_BPF_64_ABS32,
  R_BPF_64_ABS64,
  R_BPF_NONE,
  SHN_ABS,
  SHN_COMMON,
  SHN_UNDEF,
  STT_FUNC,
} from "./elf-constants";
import type { Layout, OutputSection } from "./layout";
import { LinkError } from "./link-error";
import type { ElfRelocation, ElfSymbol, RelocatableObject } from "./read-elf-object";
import { isKnownSyscall, RETIRED_SYSCALLS } from "./syscalls";

/** Code only carries lddw and call relocations; data only absolute words. */
const TEXT_RELOCATIONS = new Set([R_BPF_64_64, R_BPF_64_32]);
const DATA_RELOCATIONS = new Set([R_BPF_64_ABS64, R_BPF_64_ABS32]);

/** A `call` of a syscall: the instruction's virtual address and the syscall name. */
export interface SyscallSite {
  vaddr: number;
  name: string;
}

/**
 * Applies every relocation of the kept sections in place and returns the syscall call sites,
 * which stay symbolic: the loader patches each one with the murmur3 hash of the name through a
 * dynamic `R_BPF_64_32` (type 10) entry.
 *
 * Static resolution, with S the symbol's virtual address (== file offset) and A the implicit
 * addend the BPF backend leaves in place (REL, never RELA):
 * - `R_BPF_64_64` (lddw): imm64 = 0x1_0000_0000 + S + A — the SBPF address of the byte, since the
 *   v0 loader maps the file image at MM_REGION_SIZE. Works for data and for function addresses
 *   (`callx` subtracts the text section's address again).
 * - `R_BPF_64_32` (call) to a defined function: target = S + (imm * 8 + 8) per LLVM's encoding;
 *   imm = (target - (P + 8)) / 8, pc-relative, which the v0 loader turns into a function key.
 * - `R_BPF_64_32` to an undefined symbol: a syscall if the name is one the loader registers,
 *   imm = -1; anything else fails here, naming the symbol and the functions calling it.
 * - `R_BPF_64_ABS64` in rodata (vtables, fn/data pointer tables): 0x1_0000_0000 + S + A.
 * - `R_BPF_64_ABS32` in rodata: S + A, the plain offset (what platform-tools' lld writes: no SBPF
 *   address fits in 32 bits, so such a word can only be an offset, never a pointer).
 */
export function applyRelocations(object: RelocatableObject, layout: Layout): SyscallSite[] {
  const sites: SyscallSite[] = [];
  const unknown = new Map<string, Set<string>>();
  const sectionIndices = [...layout.placements.keys()].sort((a, b) => a - b);
  for (const sectionIndex of sectionIndices) {
    const placement = layout.placements.get(sectionIndex);
    if (!placement) continue;
    const output = placement.output === "text" ? layout.text : layout.rodata;
    const section = object.sections[sectionIndex];
    if (!section) continue;
    for (const relocation of object.relocations.get(sectionIndex) ?? []) {
      const symbol = object.symbols[relocation.symbol];
      if (!symbol) throw new LinkError(`${section.name}+0x${hex(relocation.offset)}: bad symbol index`);
      const place = placement.vaddr + relocation.offset;
      const at = place - output.offset;
      const where = () =>
        `${section.name}+0x${hex(relocation.offset)} in ${describeFunction(object, sectionIndex, relocation)}`;

      if (relocation.type === R_BPF_NONE) continue;
      if (symbol.shndx === SHN_UNDEF && symbol.index !== 0) {
        if (relocation.type !== R_BPF_64_32 || placement.output !== "text") {
          throw new LinkError(
            `${where()}: takes the address of the undefined symbol \`${symbol.name}\`; ` +
              "syscalls can only be called directly, and there is nothing else to link against",
          );
        }
        expectOpcode(output, at, OPCODE_CALL, "R_BPF_64_32", where);
        if (!isKnownSyscall(symbol.name)) {
          const callers = unknown.get(symbol.name) ?? new Set<string>();
          callers.add(describeFunction(object, sectionIndex, relocation));
          unknown.set(symbol.name, callers);
          continue;
        }
        writeI32(output, at + 4, -1);
        sites.push({ vaddr: place, name: symbol.name });
        continue;
      }

      const allowed = placement.output === "text" ? TEXT_RELOCATIONS : DATA_RELOCATIONS;
      if (!allowed.has(relocation.type)) {
        throw new LinkError(
          `${where()}: relocation type ${relocation.type} against \`${symbol.name}\` is not expected in ${placement.output === "text" ? "code" : "data"}`,
        );
      }
      const target = symbolAddress(object, layout, symbol, where);
      switch (relocation.type) {
        case R_BPF_64_64: {
          expectOpcode(output, at, OPCODE_LDDW, "R_BPF_64_64", where);
          const addend = (BigInt(readU32(output, at + 12)) << 32n) | BigInt(readU32(output, at + 4));
          const value = MM_PROGRAM_START + BigInt(target) + addend;
          writeU32(output, at + 4, Number(value & 0xffffffffn));
          writeU32(output, at + 12, Number(value >> 32n));
          break;
        }
        case R_BPF_64_32: {
          expectOpcode(output, at, OPCODE_CALL, "R_BPF_64_32", where);
          const destination = target + readI32(output, at + 4) * INSN_SIZE + INSN_SIZE;
          const inText =
            destination >= layout.text.offset && destination < layout.text.offset + layout.text.bytes.length;
          if (!inText || destination % INSN_SIZE !== 0) {
            throw new LinkError(`${where()}: call target \`${symbol.name}\` is not an instruction in .text`);
          }
          writeI32(output, at + 4, (destination - (place + INSN_SIZE)) / INSN_SIZE);
          break;
        }
        case R_BPF_64_ABS64: {
          const addend = readU64(output, at);
          writeU64(output, at, MM_PROGRAM_START + BigInt(target) + addend);
          break;
        }
        case R_BPF_64_ABS32: {
          const value = target + readU32(output, at);
          if (value > 0xffffffff) throw new LinkError(`${where()}: 32-bit relocation overflows (${value})`);
          writeU32(output, at, value);
          break;
        }
        default:
          throw new LinkError(
            `${where()}: unsupported relocation type ${relocation.type} against \`${symbol.name}\``,
          );
      }
    }
  }
  if (unknown.size > 0) throw unknownSymbolsError(unknown);
  return sites.sort((a, b) => a.vaddr - b.vaddr);
}

function symbolAddress(
  object: RelocatableObject,
  layout: Layout,
  symbol: ElfSymbol,
  where: () => string,
): number {
  if (symbol.shndx === SHN_ABS) return symbol.value;
  if (symbol.shndx === SHN_COMMON) {
    throw new LinkError(`${where()}: \`${symbol.name}\` is a common (writable, zero-initialised) symbol`);
  }
  const placement = layout.placements.get(symbol.shndx);
  if (!placement) {
    const name = object.sections[symbol.shndx]?.name ?? `#${symbol.shndx}`;
    throw new LinkError(
      `${where()}: refers to \`${symbol.name || name}\` in section ${name}, which is not linked`,
    );
  }
  return placement.vaddr + symbol.value;
}

/** The function (STT_FUNC symbol) whose bytes contain the relocated place, for messages. */
export function describeFunction(
  object: RelocatableObject,
  sectionIndex: number,
  relocation: ElfRelocation,
): string {
  const fn = object.symbols.find(
    (s) =>
      s.type === STT_FUNC &&
      s.shndx === sectionIndex &&
      relocation.offset >= s.value &&
      relocation.offset < s.value + Math.max(s.size, 1),
  );
  if (fn) return `\`${demangle(fn.name)}\``;
  const section = object.sections[sectionIndex]?.name ?? "?";
  return `${section}+0x${hex(relocation.offset)}`;
}

function unknownSymbolsError(unknown: Map<string, Set<string>>): LinkError {
  const lines = [...unknown.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, callers]) => {
      const why = RETIRED_SYSCALLS[name] ? ` — ${RETIRED_SYSCALLS[name]}` : "";
      return `  - \`${name}\`${why}\n      called from ${[...callers].sort().join(", ")}`;
    });
  return new LinkError(
    `undefined symbols that are not Solana syscalls:\n${lines.join("\n")}\n` +
      "An SBPF program links against nothing but the loader's syscalls (link/syscalls.ts). A libc or " +
      "compiler-builtins function means the IR lowering missed a construct; a misspelt `extern` " +
      "declaration would only fail at run time, so it fails here.",
  );
}

function expectOpcode(
  output: OutputSection,
  at: number,
  opcode: number,
  kind: string,
  where: () => string,
): void {
  if (output.bytes[at] !== opcode) {
    throw new LinkError(
      `${where()}: ${kind} on opcode 0x${hex(output.bytes[at] ?? 0)}, expected 0x${hex(opcode)}`,
    );
  }
}

function view(output: OutputSection): DataView {
  return new DataView(output.bytes.buffer, output.bytes.byteOffset, output.bytes.byteLength);
}
const readU32 = (o: OutputSection, at: number) => view(o).getUint32(at, true);
const readI32 = (o: OutputSection, at: number) => view(o).getInt32(at, true);
const readU64 = (o: OutputSection, at: number) => view(o).getBigUint64(at, true);
const writeU32 = (o: OutputSection, at: number, v: number) => view(o).setUint32(at, v, true);
const writeI32 = (o: OutputSection, at: number, v: number) => view(o).setInt32(at, v, true);
const writeU64 = (o: OutputSection, at: number, v: bigint) =>
  view(o).setBigUint64(at, BigInt.asUintN(64, v), true);

function hex(value: number): string {
  return value.toString(16);
}

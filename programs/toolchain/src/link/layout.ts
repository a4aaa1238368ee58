import { demangle } from "../lowering/demangle";
import {
  ELF_HEADER_SIZE,
  PROGRAM_HEADER_SIZE,
  SHF_ALLOC,
  SHF_EXECINSTR,
  SHF_WRITE,
  SHT_NOBITS,
  STT_FILE,
  STT_SECTION,
} from "./elf-constants";
import { LinkError } from "./link-error";
import type { ElfSection, RelocatableObject } from "./read-elf-object";

/** The four program headers of the output (text, rodata, dynamic tables, PT_DYNAMIC). */
export const PROGRAM_HEADER_COUNT = 4;

/** Where one input section landed: its output section and its virtual address (== file offset). */
export interface Placement {
  output: "text" | "rodata";
  vaddr: number;
}

export interface OutputSection {
  /** File offset, equal to the virtual address (the loader relies on it). */
  offset: number;
  bytes: Uint8Array;
  align: number;
}

export interface Layout {
  text: OutputSection;
  rodata: OutputSection;
  placements: Map<number, Placement>;
  /** Input sections dropped on purpose (debug info, BTF, unwind tables), for the report. */
  dropped: string[];
}

/**
 * Decides what of the object goes where, and at which address.
 *
 * - every executable section -> `.text` (one section: the loader requires exactly one);
 * - read-only data (`.rodata*`) and `.data.rel.ro*` -> `.rodata`. The latter are writable only
 *   so a dynamic loader could patch pointers; this linker resolves those pointers statically, so
 *   they are read-only from then on, and the SBPF loader maps `.rodata` read-only;
 * - `.eh_frame` (no unwinder runs on SBPF) and non-allocated sections (symbols, DWARF, BTF) are
 *   dropped;
 * - any other non-empty writable or zero-initialised section is refused: Solana programs have
 *   no writable global memory, so `static mut`, atomics and `Cell` statics cannot work.
 *
 * Input order is kept, so the same object always lays out the same way.
 */
export function layoutSections(object: RelocatableObject): Layout {
  const text: ElfSection[] = [];
  const rodata: ElfSection[] = [];
  const writable: ElfSection[] = [];
  const dropped: string[] = [];
  for (const section of object.sections) {
    if (section.index === 0) continue;
    const alloc = (section.flags & SHF_ALLOC) !== 0;
    if (!alloc || section.name.startsWith(".eh_frame")) {
      if (alloc || section.size > 0) dropped.push(section.name);
      continue;
    }
    if (section.flags & SHF_EXECINSTR) text.push(section);
    else if (section.name.startsWith(".data.rel.ro")) rodata.push(section);
    else if (section.flags & SHF_WRITE || section.type === SHT_NOBITS) {
      if (section.size > 0) writable.push(section);
    } else rodata.push(section);
  }
  if (writable.length > 0) throw writableSectionsError(object, writable);
  if (text.length === 0) throw new LinkError("the object has no code (.text) section");

  const placements = new Map<number, Placement>();
  const textStart = align(ELF_HEADER_SIZE + PROGRAM_HEADER_COUNT * PROGRAM_HEADER_SIZE, 8);
  const textOut = concatenate(text, textStart, "text", placements);
  const rodataAlign = Math.max(8, ...rodata.map((s) => s.addralign || 1));
  const rodataStart = align(textStart + textOut.bytes.length, rodataAlign);
  const rodataOut = concatenate(rodata, rodataStart, "rodata", placements);
  return {
    text: { offset: textStart, bytes: textOut.bytes, align: 8 },
    rodata: { offset: rodataStart, bytes: rodataOut.bytes, align: rodataAlign },
    placements,
    dropped,
  };
}

function concatenate(
  sections: readonly ElfSection[],
  start: number,
  output: Placement["output"],
  placements: Map<number, Placement>,
): { bytes: Uint8Array } {
  let cursor = start;
  const pieces: { at: number; data: Uint8Array }[] = [];
  for (const section of sections) {
    cursor = align(cursor, Math.max(section.addralign || 1, output === "text" ? 8 : 1));
    placements.set(section.index, { output, vaddr: cursor });
    pieces.push({ at: cursor - start, data: section.data });
    cursor += section.size;
  }
  // SBPF instructions are 8 bytes and the loader wants section sizes it can slice into them.
  const bytes = new Uint8Array(align(cursor - start, 8));
  for (const piece of pieces) bytes.set(piece.data, piece.at);
  return { bytes };
}

export function align(value: number, to: number): number {
  return Math.ceil(value / to) * to;
}

function writableSectionsError(object: RelocatableObject, sections: readonly ElfSection[]): LinkError {
  const lines = sections.map((section) => {
    const symbols = object.symbols
      .filter((s) => s.shndx === section.index && s.type !== STT_SECTION && s.type !== STT_FILE && s.name)
      .map((s) => demangle(s.name));
    const holds =
      symbols.length > 0 ? `holds ${symbols.map((s) => `\`${s}\``).join(", ")}` : "no named symbols";
    return `  - ${section.name} (${section.size} bytes, writable): ${holds}`;
  });
  return new LinkError(
    `the program has writable global data, which Solana programs cannot have:\n${lines.join("\n")}\n` +
      "Remove `static mut`, atomics and interior-mutable statics; keep mutable state in accounts " +
      "(read-only `static`/`const` data is fine).",
  );
}

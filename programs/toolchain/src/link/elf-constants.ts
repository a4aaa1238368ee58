/**
 * The ELF64 and BPF numbers the linker reads and writes (System V gABI, LLVM's BPF relocation
 * list in llvm/docs/BPF*, and what solana-sbpf's loader checks). Named here once so that the
 * reader, the relocator and the writer cannot disagree.
 */
export const ELF_HEADER_SIZE = 64;
export const PROGRAM_HEADER_SIZE = 56;
export const SECTION_HEADER_SIZE = 64;
export const SYMBOL_SIZE = 24;
export const REL_SIZE = 16;
export const DYN_SIZE = 16;

export const ELFCLASS64 = 2;
export const ELFDATA2LSB = 1;
export const EV_CURRENT = 1;
export const ET_REL = 1;
export const ET_DYN = 3;
export const EM_BPF = 247;

export const SHT_NULL = 0;
export const SHT_PROGBITS = 1;
export const SHT_SYMTAB = 2;
export const SHT_STRTAB = 3;
export const SHT_RELA = 4;
export const SHT_DYNAMIC = 6;
export const SHT_NOBITS = 8;
export const SHT_REL = 9;
export const SHT_DYNSYM = 11;

export const SHF_WRITE = 0x1;
export const SHF_ALLOC = 0x2;
export const SHF_EXECINSTR = 0x4;

export const SHN_UNDEF = 0;
export const SHN_ABS = 0xfff1;
export const SHN_COMMON = 0xfff2;

export const STB_LOCAL = 0;
export const STB_GLOBAL = 1;
export const STT_NOTYPE = 0;
export const STT_OBJECT = 1;
export const STT_FUNC = 2;
export const STT_SECTION = 3;
export const STT_FILE = 4;

export const PT_LOAD = 1;
export const PT_DYNAMIC = 2;
export const PF_X = 0x1;
export const PF_R = 0x4;

export const DT_NULL = 0;
export const DT_STRTAB = 5;
export const DT_SYMTAB = 6;
export const DT_STRSZ = 10;
export const DT_SYMENT = 11;
export const DT_REL = 17;
export const DT_RELSZ = 18;
export const DT_RELENT = 19;

/** BPF relocation types as LLVM's BPF backend emits them (ELF object, REL, implicit addends). */
export const R_BPF_NONE = 0;
/** `lddw`: 64-bit address split over the two imm fields; addend in the first imm. */
export const R_BPF_64_64 = 1;
/** 64-bit data word (vtables, function/data pointer tables); addend in place. */
export const R_BPF_64_ABS64 = 2;
/** 32-bit data word; addend in place. */
export const R_BPF_64_ABS32 = 3;
/** 32-bit data in .BTF/.BTF.ext only. */
export const R_BPF_64_NODYLD32 = 4;
/** `call` imm: target = S + (imm * 8 + 8). The SBPF loader reads type 10 as a syscall reference. */
export const R_BPF_64_32 = 10;

/** SBPF virtual address of file offset 0 (rodata and text are mapped at MM_REGION_SIZE * 1). */
export const MM_PROGRAM_START = 0x1_0000_0000n;

export const INSN_SIZE = 8;
export const OPCODE_LDDW = 0x18;
export const OPCODE_CALL = 0x85;
export const OPCODE_CALLX = 0x8d;

/**
 * Test-only reader for the linker's output: headers, sections by name, `.dynsym` and `.rel.dyn`,
 * so tests can assert on what the Solana loader will see without trusting the writer's own
 * bookkeeping.
 */
export interface SoSection {
  name: string;
  type: number;
  flags: number;
  addr: number;
  offset: number;
  size: number;
  link: number;
  entsize: number;
  bytes: Uint8Array;
}

export interface SharedObject {
  type: number;
  machine: number;
  flags: number;
  entry: number;
  programHeaders: {
    type: number;
    flags: number;
    offset: number;
    vaddr: number;
    filesz: number;
    memsz: number;
  }[];
  sections: SoSection[];
  section(name: string): SoSection;
  dynamicSymbols: { name: string; value: number; info: number; shndx: number }[];
  dynamicRelocations: { offset: number; type: number; symbol: string }[];
}

export function readSharedObject(so: Uint8Array): SharedObject {
  const view = new DataView(so.buffer, so.byteOffset, so.byteLength);
  const u16 = (at: number) => view.getUint16(at, true);
  const u32 = (at: number) => view.getUint32(at, true);
  const u64 = (at: number) => Number(view.getBigUint64(at, true));
  const str = (table: Uint8Array, at: number) => {
    let end = at;
    while (table[end] !== 0) end++;
    return new TextDecoder().decode(table.subarray(at, end));
  };

  const phoff = u64(32);
  const shoff = u64(40);
  const programHeaders = Array.from({ length: u16(56) }, (_, i) => {
    const at = phoff + i * 56;
    return {
      type: u32(at),
      flags: u32(at + 4),
      offset: u64(at + 8),
      vaddr: u64(at + 16),
      filesz: u64(at + 32),
      memsz: u64(at + 40),
    };
  });
  const raw = Array.from({ length: u16(60) }, (_, i) => {
    const at = shoff + i * 64;
    const offset = u64(at + 24);
    const size = u64(at + 32);
    return {
      nameOffset: u32(at),
      type: u32(at + 4),
      flags: u64(at + 8),
      addr: u64(at + 16),
      offset,
      size,
      link: u32(at + 40),
      entsize: u64(at + 56),
      bytes: so.subarray(offset, offset + size),
    };
  });
  const names = raw[u16(62)]?.bytes ?? new Uint8Array();
  const sections = raw.map(({ nameOffset, ...s }) => ({ ...s, name: str(names, nameOffset) }));
  const section = (name: string) => {
    const found = sections.find((s) => s.name === name);
    if (!found) throw new Error(`no section ${name}`);
    return found;
  };

  const dynstr = section(".dynstr").bytes;
  const dynsym = section(".dynsym").bytes;
  const symView = new DataView(dynsym.buffer, dynsym.byteOffset, dynsym.byteLength);
  const dynamicSymbols = Array.from({ length: dynsym.length / 24 }, (_, i) => ({
    name: str(dynstr, symView.getUint32(i * 24, true)),
    info: dynsym[i * 24 + 4] as number,
    shndx: symView.getUint16(i * 24 + 6, true),
    value: Number(symView.getBigUint64(i * 24 + 8, true)),
  }));
  const rel = section(".rel.dyn").bytes;
  const relView = new DataView(rel.buffer, rel.byteOffset, rel.byteLength);
  const dynamicRelocations = Array.from({ length: rel.length / 16 }, (_, i) => {
    const info = relView.getBigUint64(i * 16 + 8, true);
    return {
      offset: Number(relView.getBigUint64(i * 16, true)),
      type: Number(info & 0xffffffffn),
      symbol: dynamicSymbols[Number(info >> 32n)]?.name ?? "?",
    };
  });

  return {
    type: u16(16),
    machine: u16(18),
    flags: u32(48),
    entry: u64(24),
    programHeaders,
    sections,
    section,
    dynamicSymbols,
    dynamicRelocations,
  };
}

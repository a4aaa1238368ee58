export interface ArchiveMember {
  name: string;
  data: Uint8Array;
}

/**
 * Reads the members of a Unix `ar` archive (the `.a` cargo writes for a staticlib), in archive
 * order. Does what `ar x` would, without its pitfalls: members with the same name do not
 * overwrite each other, and nothing depends on which `ar` is installed. GNU long names (`//`
 * table) and BSD `#1/<len>` names are supported; symbol tables are skipped.
 */
export function readArchive(bytes: Uint8Array): ArchiveMember[] {
  const text = (from: number, to: number) => new TextDecoder("latin1").decode(bytes.subarray(from, to));
  const magic = text(0, 8);
  if (magic === "!<thin>\n") throw new Error("thin archives are not supported (members live outside the .a)");
  if (magic !== "!<arch>\n") throw new Error("not an ar archive (bad magic)");

  const members: ArchiveMember[] = [];
  let longNames = "";
  let at = 8;
  while (at + 60 <= bytes.length) {
    const rawName = text(at, at + 16).trimEnd();
    const size = Number.parseInt(text(at + 48, at + 58).trim(), 10);
    if (text(at + 58, at + 60) !== "`\n" || !Number.isFinite(size)) {
      throw new Error(`corrupt ar member header at offset ${at}`);
    }
    let start = at + 60;
    let dataSize = size;
    let name: string;
    if (rawName === "/" || rawName === "/SYM64/" || rawName.startsWith("__.SYMDEF")) {
      name = "";
    } else if (rawName === "//") {
      longNames = text(start, start + size);
      name = "";
    } else if (/^\/\d+$/.test(rawName)) {
      const offset = Number(rawName.slice(1));
      const end = longNames.indexOf("\n", offset);
      name = longNames.slice(offset, end < 0 ? undefined : end).replace(/\/$/, "");
    } else if (rawName.startsWith("#1/")) {
      const nameLength = Number(rawName.slice(3));
      name = text(start, start + nameLength).replace(/\0+$/, "");
      start += nameLength;
      dataSize -= nameLength;
    } else {
      name = rawName.replace(/\/$/, "");
    }
    if (name) members.push({ name, data: bytes.subarray(start, start + dataSize) });
    at = at + 60 + size + (size % 2);
  }
  return members;
}

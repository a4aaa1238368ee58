import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runStep } from "../run-step";
import type { Toolchain } from "../toolchain";
import type { ArchiveMember } from "./read-archive";

const BITCODE_MAGIC = [0x42, 0x43, 0xc0, 0xde];

/**
 * Links the staticlib's bitcode members into one module and disassembles it to text.
 *
 * The crate's own member goes first and is linked whole; every other member (`core`,
 * `compiler_builtins` — present when the archive was not fat-LTO'd) is linked with
 * `--only-needed --internalize`, so only functions the program actually references come in,
 * as internal symbols. An archive member that is not bitcode means the crate was not built for
 * the bitcode target, which would silently drop code, so it fails the build.
 */
export function linkBitcode(
  toolchain: Toolchain,
  members: readonly ArchiveMember[],
  libName: string,
  workDir: string,
): { ir: string; memberCount: number } {
  if (members.length === 0) throw new Error("the staticlib archive has no members");
  for (const member of members) {
    if (!BITCODE_MAGIC.every((byte, i) => member.data[i] === byte)) {
      throw new Error(`archive member ${member.name} is not LLVM bitcode (built for the wrong target?)`);
    }
  }
  const mainIndex = Math.max(
    0,
    members.findIndex((m) => m.name.startsWith(`${libName}-`)),
  );
  const ordered = [members[mainIndex] as ArchiveMember, ...members.filter((_, i) => i !== mainIndex)];
  const membersDir = join(workDir, "members");
  mkdirSync(membersDir, { recursive: true });
  const paths = ordered.map((member, i) => {
    // Index prefix: members may share a name inside an archive; files must not.
    const path = join(membersDir, `${String(i).padStart(4, "0")}-${member.name.replaceAll("/", "_")}`);
    writeFileSync(path, member.data);
    return path;
  });

  const linked = join(workDir, "linked.bc");
  const rest = paths.slice(1);
  runStep(
    "llvm-link (merge bitcode members)",
    toolchain.llvmLink,
    [
      paths[0] as string,
      ...(rest.length > 0 ? ["--only-needed", "--internalize", ...rest] : []),
      "-o",
      linked,
    ],
    { missingHint: `install the Debian package llvm-${toolchain.llvmMajor}` },
  );
  const text = join(workDir, "linked.ll");
  runStep("llvm-dis (bitcode -> text IR)", toolchain.llvmDis, [linked, "-o", text], {
    missingHint: `install the Debian package llvm-${toolchain.llvmMajor}`,
  });
  return { ir: readFileSync(text, "utf8"), memberCount: members.length };
}

import { mergeBytes } from "@solana/kit";
import { describe, expect, it } from "vitest";
import { readArchive } from "./read-archive";

const encoder = new TextEncoder();

/** One ar member header + data (padded to even length), `name` written verbatim. */
function member(name: string, data: Uint8Array): Uint8Array {
  const header = `${name.padEnd(16)}${"0".padEnd(12)}${"0".padEnd(6)}${"0".padEnd(6)}${"644".padEnd(8)}${String(data.length).padEnd(10)}\`\n`;
  const out = new Uint8Array(60 + data.length + (data.length % 2));
  out.set(encoder.encode(header));
  out.set(data, 60);
  return out;
}

function archive(...members: Uint8Array[]): Uint8Array {
  return mergeBytes([encoder.encode("!<arch>\n"), ...members]);
}

describe("readArchive", () => {
  it("given a GNU archive with a symbol table, long names and duplicate names, then every member comes back in order", () => {
    const longName = "agent_policy-0123456789abcdef.agent_policy.0123456789abcdef-cgu.0.rcgu.o";
    const bytes = archive(
      member("/", Uint8Array.of(0, 0, 0, 0)),
      member("//", encoder.encode(`${longName}/\n`)),
      member("/0", encoder.encode("BC one")),
      member("lib.rmeta/", encoder.encode("odd")),
      member("dup.o/", encoder.encode("first")),
      member("dup.o/", encoder.encode("second")),
    );

    const members = readArchive(bytes);

    expect(members.map((m) => m.name)).toEqual([longName, "lib.rmeta", "dup.o", "dup.o"]);
    expect(members.map((m) => new TextDecoder().decode(m.data))).toEqual([
      "BC one",
      "odd",
      "first",
      "second",
    ]);
  });

  it("given a BSD #1/ name, then the name is read from the data area", () => {
    const members = readArchive(archive(member("#1/12", encoder.encode("long_name.o\0payload"))));
    expect(members).toEqual([{ name: "long_name.o", data: encoder.encode("payload") }]);
  });

  it("given something that is not an archive, then it says so", () => {
    expect(() => readArchive(encoder.encode("\x7fELF...."))).toThrow(/not an ar archive/);
    expect(() => readArchive(encoder.encode("!<thin>\n"))).toThrow(/thin archives/);
  });
});

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  agentHandleOf,
  HandleValidationError,
  normalizeAccountHandle,
  normalizeAgentHandle,
  normalizeAgentName,
  normalizeHandle,
  parseAgentHandle,
} from "./handles";

const ACCOUNT_HANDLE = /^[a-z0-9_-]+(\.[a-z0-9_-]+)*$/;
const AGENT_NAME = /^[a-z0-9_-]+$/;

function codeOf(action: () => unknown): string | undefined {
  try {
    action();
    return undefined;
  } catch (error) {
    if (error instanceof HandleValidationError) return error.code;
    throw error;
  }
}

/** Each input of `refused` is refused by `normalize` with the code it is listed under. */
function expectRefused(
  normalize: (input: string) => string,
  refused: Record<string, readonly string[]>,
): void {
  for (const [code, inputs] of Object.entries(refused)) {
    for (const input of inputs)
      expect(
        codeOf(() => normalize(input)),
        JSON.stringify(input),
      ).toBe(code);
  }
}

/** Valid account handles: 1-32 bytes of non-empty labels. */
const accountHandles = fc
  .array(fc.stringMatching(/^[a-z0-9_-]{1,8}$/), { minLength: 1, maxLength: 4 })
  .map((labels) => labels.join("."))
  .filter((handle) => handle.length <= 32);
const agentNames = fc.stringMatching(/^[a-z0-9_-]{1,32}$/);

/** Upper-cases some ASCII letters, adds surrounding whitespace and maybe one `@`: what users type. */
function messUp(handle: string) {
  return fc
    .tuple(
      fc.array(fc.boolean(), { minLength: handle.length, maxLength: handle.length }),
      fc.boolean(),
      fc.boolean(),
    )
    .map(([upper, at, spaces]) => {
      const cased = [...handle].map((character, index) =>
        upper[index] ? character.toUpperCase() : character,
      );
      const text = `${at ? "@" : ""}${cased.join("")}`;
      return spaces ? `  ${text}\t` : text;
    });
}

describe("account handles", () => {
  it("normalises: trim, strip one leading @, lower-case ASCII", () => {
    // Given what users type / When normalised / Then the program's bytes
    expect(normalizeAccountHandle("  @Acme ")).toBe("acme");
    expect(normalizeAccountHandle("Pay.ACME")).toBe("pay.acme");
    expect(normalizeAccountHandle("acme_co-2")).toBe("acme_co-2");
    expect(normalizeAccountHandle("a".repeat(32))).toBe("a".repeat(32));
  });

  it("refuses what the grammar does not allow, with a code per reason", () => {
    expectRefused(normalizeAccountHandle, {
      empty: ["", " @ "],
      invalid_character: ["@@acme", "ÀCME", "ac me", "acme/bot"],
      empty_label: [".acme", "acme.", "pay..acme"],
      too_long: ["a".repeat(33)],
    });
  });

  it("is idempotent and undoes case, whitespace and one @ (property)", () => {
    fc.assert(
      fc.property(
        accountHandles.chain((handle) => fc.tuple(fc.constant(handle), messUp(handle))),
        ([handle, typed]) => {
          expect(normalizeAccountHandle(typed)).toBe(handle);
          expect(normalizeAccountHandle(handle)).toBe(handle);
        },
      ),
    );
  });

  it("either returns a handle in the grammar or throws a HandleValidationError, for any string (property)", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.stringMatching(/^@?[A-Za-z0-9_.\-/ ]{0,40}$/)), (input) => {
        let handle: string;
        try {
          handle = normalizeAccountHandle(input);
        } catch (error) {
          expect(error).toBeInstanceOf(HandleValidationError);
          return;
        }
        expect(handle).toMatch(ACCOUNT_HANDLE);
        expect(handle.length).toBeLessThanOrEqual(32);
      }),
    );
  });
});

describe("agent handles", () => {
  it("normalises both parts of owner/name", () => {
    expect(parseAgentHandle("@Acme/Payroll-Bot")).toEqual({
      handle: "acme/payroll-bot",
      owner: "acme",
      name: "payroll-bot",
    });
    expect(normalizeAgentHandle(" pay.acme/bot_1 ")).toBe("pay.acme/bot_1");
    expect(agentHandleOf("@Acme", "Bot")).toBe("acme/bot");
    expect(normalizeAgentName("@Bot")).toBe("bot");
  });

  it("refuses malformed agent handles", () => {
    expectRefused(normalizeAgentHandle, {
      not_an_agent_handle: ["acme"],
      empty: ["acme/", "/bot"],
      invalid_character: ["acme/pay.bot", "acme/x/y"],
      too_long: [`acme/${"b".repeat(33)}`],
    });
    expect(codeOf(() => normalizeAgentName(""))).toBe("empty");
  });

  it("allows 64 bytes in all and no more", () => {
    // Given a 31-byte owner and a 32-byte name: 64 bytes / When parsed / Then accepted
    expect(normalizeAgentHandle(`${"o".repeat(31)}/${"n".repeat(32)}`)).toHaveLength(64);
    // Given a 32-byte owner and a 32-byte name: 65 bytes / Then refused
    expect(codeOf(() => normalizeAgentHandle(`${"o".repeat(32)}/${"n".repeat(32)}`))).toBe("too_long");
  });

  it("normalises either kind through normalizeHandle", () => {
    expect(normalizeHandle("@Acme")).toBe("acme");
    expect(normalizeHandle("@Acme/Bot")).toBe("acme/bot");
  });

  it("round-trips valid agent handles typed any way (property)", () => {
    fc.assert(
      fc.property(accountHandles, agentNames, (owner, name) => {
        fc.pre(owner.length + 1 + name.length <= 64);
        const handle = `${owner}/${name}`;
        expect(normalizeAgentHandle(`@${handle.toUpperCase()}`)).toBe(handle);
        expect(parseAgentHandle(handle)).toEqual({ handle, owner, name });
      }),
    );
  });

  it("either returns owner/name in the grammar or throws a HandleValidationError (property)", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.stringMatching(/^@?[A-Za-z0-9_.\-/]{0,70}$/)), (input) => {
        try {
          const { owner, name, handle } = parseAgentHandle(input);
          expect(owner).toMatch(ACCOUNT_HANDLE);
          expect(name).toMatch(AGENT_NAME);
          expect(handle.length).toBeLessThanOrEqual(64);
        } catch (error) {
          expect(error).toBeInstanceOf(HandleValidationError);
        }
      }),
    );
  });
});

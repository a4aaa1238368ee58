/**
 * `idl/agent_policy.json` is hand-written once; these tests hold it to its sources: Anchor's
 * discriminator rule, the README's accounts, LENs, offsets, instructions, events and errors, the
 * program's `error.rs`, and the generated client's sizes and codes.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import type { IdlV01Type } from "@codama/nodes-from-anchor";
import { describe, expect, it } from "vitest";
import { accountLayout, readIdl } from "../scripts/idl-layout";
import {
  AGENT_POLICY_ERROR_DETAILS,
  AGENT_POLICY_PROGRAM_ADDRESS,
  getAgentSize,
  getConfigSize,
  getHandleSize,
  getPendingTransactionSize,
  getPolicySize,
  getReceiptSize,
} from "./generated";

const idl = readIdl();
const readme = readFileSync(new URL("../../programs/agent-policy/README.md", import.meta.url), "utf8");
const errorRs = readFileSync(new URL("../../programs/agent-policy/src/error.rs", import.meta.url), "utf8");

function sha256Prefix(preimage: string): number[] {
  return [...createHash("sha256").update(preimage).digest().subarray(0, 8)];
}

/** The README's instruction table: name -> args text and accounts text. */
function readmeInstructions(): Map<string, { args: string; accounts: string }> {
  const rows = new Map<string, { args: string; accounts: string }>();
  for (const match of readme.matchAll(/^\| `([a-z_]+)` \| (.*) \| (.*) \|$/gm)) {
    const [, name, args, accounts] = match;
    if (name !== undefined && args !== undefined && accounts !== undefined && !/^\d+$/.test(accounts)) {
      rows.set(name, { args, accounts });
    }
  }
  return rows;
}

/** `config (w), admin (s,w; the upgrade authority), program_data` -> names with their flags. */
function parseReadmeAccounts(text: string): { name: string; flags: string[] }[] {
  return [...text.matchAll(/([a-z_]+)(?: \(([^)]*)\))?/g)].map(([, name = "", flags = ""]) => ({
    name,
    flags: (flags.split(";")[0] ?? "")
      .split(",")
      .map((flag) => flag.trim())
      .filter((flag) => flag !== ""),
  }));
}

/** The README's spelling of an IDL type (`[u8; 16]`, `PolicyArgs`, `pubkey`...). */
function readmeType(type: IdlV01Type): string {
  if (typeof type === "string") return type;
  if ("array" in type) return `[${readmeType(type.array[0] as IdlV01Type)}; ${String(type.array[1])}]`;
  if ("defined" in type) return typeof type.defined === "string" ? type.defined : type.defined.name;
  return JSON.stringify(type);
}

describe("idl/agent_policy.json", () => {
  it("names the program, its version and the Anchor IDL spec", () => {
    expect(idl.address).toBe("8Nw3ycbiD91Z5xsgaUEQr8k7KzEkf5HQiTVWRAMkaYLf");
    expect(idl.metadata).toMatchObject({ name: "agent_policy", version: "0.1.0", spec: "0.1.0" });
    expect(AGENT_POLICY_PROGRAM_ADDRESS).toBe(idl.address);
  });

  it("has Anchor discriminators: sha256 of global:/account:/event: + name, first 8 bytes", () => {
    for (const instruction of idl.instructions) {
      expect(instruction.discriminator, instruction.name).toEqual(sha256Prefix(`global:${instruction.name}`));
    }
    for (const account of idl.accounts ?? []) {
      expect(account.discriminator, account.name).toEqual(sha256Prefix(`account:${account.name}`));
    }
    for (const event of idl.events ?? []) {
      expect(event.discriminator, event.name).toEqual(sha256Prefix(`event:${event.name}`));
    }
    // A published anchor value, so the rule itself is pinned: sha256("global:initialize")[..8].
    expect(sha256Prefix("global:initialize")).toEqual([175, 175, 109, 31, 13, 152, 155, 237]);
  });

  it("lays every account out to the README's LEN (8 + the sum of its field sizes)", () => {
    const readmeLens = new Map(
      [...readme.matchAll(/^\| `([A-Za-z]+)` \| `\[.*\| (\d+) \|$/gm)].map(([, name = "", len]) => [
        name,
        Number(len),
      ]),
    );
    expect(Object.fromEntries(readmeLens)).toEqual({
      Config: 208,
      Handle: 112,
      Agent: 224,
      Policy: 1544,
      PendingTransaction: 416,
      Receipt: 112,
    });
    expect((idl.accounts ?? []).map((account) => account.name).sort()).toEqual([...readmeLens.keys()].sort());
    for (const [name, len] of readmeLens) {
      expect(accountLayout(idl, name).size, name).toBe(len);
    }
  });

  it("puts fields at the README's offsets", () => {
    const offsets = (name: string) =>
      Object.fromEntries(accountLayout(idl, name).fields.map((field) => [field.name, field.offset]));
    expect(offsets("Config")).toMatchObject({
      admin: 8,
      registrar: 40,
      bump: 72,
      layout_version: 73,
      reserved: 74,
    });
    expect(offsets("Handle")).toMatchObject({
      wallet: 8,
      kind: 40,
      bump: 41,
      handle_len: 42,
      handle: 43,
      reserved: 107,
    });
    expect(offsets("Agent")).toMatchObject({
      owner: 8,
      agent_signer: 40,
      handle_hash: 72,
      bump: 104,
      policy_bump: 105,
      status: 106,
      handle_len: 107,
      handle: 108,
      next_hold_nonce: 172,
      open_holds: 180,
      created_at: 184,
      confidential_hold: 192,
    });
    expect(offsets("Policy")).toMatchObject({
      agent: 8,
      version: 40,
      active_start_minute: 44,
      active_end_minute: 46,
      per_transaction_limit: 48,
      daily_limit: 56,
      hitl_threshold: 64,
      approval_window_seconds: 72,
      mint_count: 76,
      pattern_count: 77,
      bump: 78,
      padding: 79,
      day_index: 80,
      spent_today: 88,
      updated_at: 96,
      allowed_mints: 104,
      recipient_patterns: 232,
      spend_ciphertext: 1288,
      spend_pubkey: 1352,
      spend_decryptable: 1384,
      reserved: 1420,
    });
    expect(offsets("PendingTransaction")).toMatchObject({
      agent: 8,
      nonce: 40,
      source: 48,
      destination: 80,
      mint: 112,
      amount: 144,
      requested_at: 152,
      expires_at: 160,
      rent_payer: 168,
      recipient_handle_len: 200,
      bump: 201,
      confidential: 202,
      padding: 203,
      recipient_handle: 208,
      transfer_id: 272,
      equality_proof: 288,
      ciphertext_validity_proof: 320,
      range_proof: 352,
      confidential_tail: 384,
    });
    expect(offsets("Receipt")).toMatchObject({
      transfer_id: 8,
      sender: 24,
      recorded_at: 56,
      bump: 64,
      reserved: 65,
    });
  });

  it("has the README's instructions, in order, with their args and accounts (signer, writable, optional)", () => {
    const rows = readmeInstructions();
    expect(idl.instructions.map((instruction) => instruction.name)).toEqual([...rows.keys()]);
    for (const instruction of idl.instructions) {
      const row = rows.get(instruction.name);
      const args = instruction.args.map((arg) => `${arg.name}: ${readmeType(arg.type)}`).join(", ");
      expect(row?.args.startsWith(args === "" ? "—" : `\`${args}\``), instruction.name).toBe(true);
      const accounts = instruction.accounts.map((account) => {
        if ("accounts" in account) throw new Error("no composite accounts in this IDL");
        const flags = [account.signer ? "s" : "", account.writable ? "w" : "", account.optional ? "opt" : ""];
        return { name: account.name, flags: flags.filter((flag) => flag !== "") };
      });
      expect(accounts, instruction.name).toEqual(parseReadmeAccounts(row?.accounts ?? ""));
    }
  });

  it("has the README's events with their fields in order", () => {
    const readmeEvents = [...readme.matchAll(/`([A-Z][A-Za-z]+) \{([^}]*)\}`/g)]
      .filter(([, name]) => name?.endsWith("Args") === false)
      .map(([, name, fields = ""]) => ({
        name,
        fields: fields.split(",").map((field) => field.split(":")[0]?.trim()),
      }));
    const types = idl.types ?? [];
    const idlEvents = (idl.events ?? []).map((event) => {
      const type = types.find((candidate) => candidate.name === event.name)?.type;
      const fields = type?.kind === "struct" ? (type.fields ?? []) : [];
      return {
        name: event.name,
        fields: fields.map((field) => (typeof field === "object" && "name" in field ? field.name : "?")),
      };
    });
    expect(idlEvents).toEqual(readmeEvents);
  });

  it("numbers errors from 6000 without gaps, named as the README lists them", () => {
    const errors = idl.errors ?? [];
    expect(errors.map((error) => error.code)).toEqual(errors.map((_, index) => 6000 + index));
    expect(errors).toHaveLength(44);
    const readmeNames = Object.fromEntries(
      [...readme.matchAll(/(60\d\d) ([A-Z][A-Za-z]+)/g)].map(([, code, name]) => [Number(code), name]),
    );
    for (const error of errors.filter((candidate) => candidate.code >= 6012)) {
      expect(error.name, String(error.code)).toBe(readmeNames[error.code]);
    }
    for (const error of errors) expect(error.msg?.length, error.name).toBeGreaterThan(0);
  });

  it("matches every error the program's error.rs declares: code, name and message", () => {
    const codes = [...errorRs.matchAll(/^\s+([A-Z][A-Za-z]+) = (\d+),/gm)].map(([, name, code]) => ({
      name,
      code: Number(code),
    }));
    const messageBody = errorRs.slice(errorRs.indexOf("pub const fn message"));
    const messages = new Map(
      [...messageBody.matchAll(/Self::([A-Za-z]+) =>\s*\{?\s*"((?:[^"\\]|\\.)*)"/g)].map(
        ([, name, message]) => [name, message],
      ),
    );
    expect(codes.length).toBeGreaterThanOrEqual(12);
    for (const { name, code } of codes) {
      expect(
        idl.errors?.find((error) => error.code === code),
        name,
      ).toEqual({ code, name, msg: messages.get(name ?? "") });
    }
  });

  it("is what the generated client was rendered from (sizes and error details)", () => {
    expect([
      getConfigSize(),
      getHandleSize(),
      getAgentSize(),
      getPolicySize(),
      getPendingTransactionSize(),
      getReceiptSize(),
    ]).toEqual([208, 112, 224, 1544, 416, 112]);
    expect(
      Object.entries(AGENT_POLICY_ERROR_DETAILS).map(([code, { name, message }]) => ({
        code: Number(code),
        name,
        msg: message,
      })),
    ).toEqual(idl.errors);
  });
});

/**
 * Test helpers for the keys derived from an account's 32-byte secret: the SDK's keyset (zk-sdk) and
 * the browser's viewing keys (noble, `@cpay/sdk/sealed`) side by side, and the strings every
 * importer of an exported secret must refuse. Here, not in sealed/, which must stay browser-safe.
 */
import type { ViewingKeys } from "../sealed/viewing-keys";
import { exportConfidentialSecret } from "./key-export";
import { type ConfidentialKeyset, deriveConfidentialKeys, generateConfidentialSecret } from "./keys";

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex");

/** Both keysets as [ElGamal scalar, ElGamal pubkey, AE key] in hex: equal exactly when the keys are. */
export function keysetsAsHex(zk: ConfidentialKeyset, view: ViewingKeys): { zk: string[]; view: string[] } {
  const scalar = Buffer.alloc(32);
  let rest = view.elgamalScalar;
  for (let i = 0; i < 32; i++, rest >>= 8n) scalar[i] = Number(rest & 0xffn);
  return {
    zk: [hex(zk.elgamal.secret().toBytes()), hex(zk.elgamalPubkey), hex(zk.ae.toBytes())],
    view: [scalar.toString("hex"), hex(view.elgamalPubkey), hex(view.aeKey)],
  };
}

/** What importing each of malformedSecretExports() throws (undefined where it was accepted). */
export function errorsImportingMalformedExports(importer: (exported: string) => unknown): unknown[] {
  return malformedSecretExports().map((bad) => thrownBy(() => importer(bad)));
}

/** Not a v1 secret export: empty, not base64, cut short, too long, padded, and a version 2 export. */
function malformedSecretExports(): string[] {
  const good = exportConfidentialSecret(new Uint8Array(32).fill(9));
  const wrongVersion = Buffer.from(good, "base64");
  wrongVersion[0] = 2;
  return ["", "!!!!", good.slice(0, -4), `${good}AAAA`, ` ${good}`, wrongVersion.toString("base64")];
}

/** `count` keysets of fresh random secrets: a test's parties, unrelated to each other. */
export function randomKeysets<N extends number>(count: N): Keysets<N> {
  return Array.from({ length: count }, () =>
    deriveConfidentialKeys(generateConfidentialSecret()),
  ) as Keysets<N>;
}

/** A tuple of `N` keysets, so each destructured party is a keyset (not possibly undefined). */
type Keysets<N extends number, Built extends ConfidentialKeyset[] = []> = Built["length"] extends N
  ? Built
  : Keysets<N, [...Built, ConfidentialKeyset]>;

/** What `run` throws; undefined when it returns. */
export function thrownBy(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  return undefined;
}

/**
 * The zk-sdk this process computes with: the Node build of `@solana/zk-sdk` (0.4.1), loaded once.
 *
 * Why the `node` build and why one instance: the package ships three WASM builds. `bundler` imports
 * the `.wasm` file as an ES module, which Node 24 loads only as an experimental feature (with a
 * warning) and as an instance of its own; `node` reads it with `fs` and is a CommonJS module, the
 * build meant for Node. wasm-bindgen checks arguments with
 * `instanceof` against the classes of the instance that made them, so a keypair from one copy is
 * rejected by another ("expected instance of ElGamalKeypair"). Every file in this folder imports
 * the classes from here. Because `@solana/zk-sdk/node` is CommonJS, an ESM `import` and a CJS
 * `require` of it resolve to the same `Module._cache` entry, so ESM and CJS callers share it too.
 * Token-2022's own confidential helpers import the `bundler` build; `token-confidential-helpers.ts`
 * points that import at this same instance.
 */
export {
  AeCiphertext,
  AeKey,
  BatchedGroupedCiphertext3HandlesValidityProofData,
  BatchedRangeProofU64Data,
  BatchedRangeProofU128Data,
  CiphertextCommitmentEqualityProofData,
  ElGamalCiphertext,
  ElGamalKeypair,
  ElGamalPubkey,
  ElGamalSecretKey,
  GroupedElGamalCiphertext3Handles,
  PedersenCommitment,
  PedersenOpening,
  PubkeyValidityProofData,
  ZeroCiphertextProofData,
} from "@solana/zk-sdk/node";

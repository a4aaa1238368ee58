/**
 * `@cpay/localnet`: the test cluster. `./cluster` is the LiteSVM simulator (and `inProcessChain`, the
 * chain port over it for fast in-process tests); `./rpc` serves it as a Solana node; `src/main.ts`
 * is the process `npm run localnet` and the start command run.
 */
export * from "./cluster/index";
export * from "./rpc/index";

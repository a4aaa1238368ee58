/**
 * The test cluster's USDG faucet, as a chain connection offers it (chain-connection.ts): the
 * localnet's mint authority mints (mint-test-usdg.ts); a suite's in-process cluster mints directly.
 * accounts/fund-test-account.ts funds an account from it.
 */

/** Mints to an owner's public token balance. */
export interface UsdgFaucet {
  mintUsdgToOwner(owner: string, amount: bigint): Promise<unknown>;
}

/**
 * `ACCOUNT_OPENING_FEE_USDG`: what a sender pays, in USDG, when its transfer makes the fee reserve
 * open the recipient's token account for an owner the service does not custody (api/README.md,
 * "Fee reserve: opening recipients' accounts"). Whoever closes a token account takes its rent, so
 * the fee must outweigh that rent (2,074,080 lamports for a USDG account) at any SOL price the
 * operator expects: the attack pays only while SOL is worth more than fee / rent USDG, about 482
 * USDG at the default 1 USDG. Zero is refused: it would hand the reserve's SOL to anyone.
 */

import { ConfigError } from "@cpay/ledger/config";
import { AmountError, parseDecimalAmount, USDG_DECIMALS } from "@cpay/sdk";

/** The default fee: 1 USDG. */
const DEFAULT_ACCOUNT_OPENING_FEE_USDG = "1";
/** The most it may be set to: a typo that would make every first payment cost a fortune is refused. */
const MAX_FEE_UNITS = 1_000n * 10n ** BigInt(USDG_DECIMALS);

/** The fee in base units of USDG from `env`, or a ConfigError naming the variable. */
export function accountOpeningFeeFromEnv(env: NodeJS.ProcessEnv): bigint {
  const given = env.ACCOUNT_OPENING_FEE_USDG;
  const text = given === undefined || given === "" ? DEFAULT_ACCOUNT_OPENING_FEE_USDG : given;
  let units: bigint;
  try {
    units = parseDecimalAmount(text, USDG_DECIMALS);
  } catch (error) {
    if (!(error instanceof AmountError)) throw error;
    throw new ConfigError(
      `ACCOUNT_OPENING_FEE_USDG must be a USDG amount such as 1 or 0.5 (at most ${USDG_DECIMALS} decimals), got "${text}"`,
    );
  }
  if (units === 0n || units > MAX_FEE_UNITS) {
    throw new ConfigError(
      `ACCOUNT_OPENING_FEE_USDG must be above 0 and at most 1000 USDG (zero would let anyone take the reserve's rent home), got "${text}"`,
    );
  }
  return units;
}

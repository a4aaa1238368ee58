/** USDG, the asset the service moves: a Token-2022 mint with 6 decimals (base units = USDG × 10^6). */
export const USDG_DECIMALS = 6;

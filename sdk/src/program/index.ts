/**
 * Hand-written helpers on top of the generated agent-policy client: handles, PDAs, API <-> on-chain
 * policy units, instruction builders per flow, event parsing and error mapping. Each module's
 * exports are all public; what a module keeps to itself it does not export.
 */

export * from "./active-hours";
export * from "./amounts";
export * from "./errors";
export * from "./events";
export * from "./handles";
export * from "./instructions";
export * from "./landed-facts";
export * from "./pdas";
export * from "./policy-codec";
export * from "./policy-refusals";
export * from "./program-account";
export * from "./recipient-patterns";
export * from "./spend-rules";
export * from "./upgradeable-loader";
export * from "./upgradeable-loader-state";
export * from "./usdg";

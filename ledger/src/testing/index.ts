/**
 * `@cpay/ledger/testing`: fixtures for the tests of this package and its dependants (never imported
 * by production code): an account row with its empty defaults, and a fresh database of accounts.
 */
export { accountRowOf } from "./account-row";
export { type RecordsWorld, someSignature, startRecordsWorld } from "./records-world";

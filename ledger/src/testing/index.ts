/**
 * `@cpay/ledger/testing`: fixtures for the tests of this package and its dependants (never imported
 * by production code): an account row with its empty defaults, a fresh database of accounts, and an
 * empty in-memory database per test.
 */
export { accountRowOf } from "./account-row";
export { useMemoryDatabase } from "./memory-database";
export { type RecordsWorld, someSignature, startRecordsWorld } from "./records-world";

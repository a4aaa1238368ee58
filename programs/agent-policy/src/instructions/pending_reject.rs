//! `pending_reject` — the agent's owner discards a held spend before it expires: nothing moves,
//! the hold is closed and its rent returns to whoever paid it.
//!
//! Data (8 bytes): discriminator `sha256("global:pending_reject")[..8]`.
//!
//! Accounts:
//! 0. `owner`          signer — must be `agent.owner`
//! 1. `agent`          writable — `Agent` of this program (its open-hold count drops)
//! 2. `pending`        writable — `PendingTransaction` with `pending.agent == agent`
//! 3. `rent_receiver`  writable — must be `pending.rent_payer`
//!
//! A confidential hold takes four more (a public hold ignores them: absent, or anything):
//! 4. `equality_proof`             writable — the pinned Token context
//! 5. `ciphertext_validity_proof`  writable — the pinned Token context
//! 6. `range_proof`                writable — the pinned Token context
//! 7. `zk_elgamal_proof_program`   `ZkE1Gama1Proof11111111111111111111111111111`
//!
//! The contexts are closed to `rent_receiver` and `agent.confidential_hold` is cleared (see
//! `hold_close::ClosingHold::release` and `confidential_spend::release`: `NotEnoughAccounts`,
//! `WrongPendingTransaction`, `AccountNotWritable`, `WrongProgram`; `WrongAccountData` for a
//! confidential flag on a 416-byte account).
//!
//! Errors: `NotAgentOwner`, `MissingSigner`, `WrongPendingTransaction`, `WrongRentReceiver`,
//! `TransactionExpired` (now >= expires_at: use `pending_close_expired`).
//!
//! Emits `TransactionRejected`.

use crate::error::ProgramResult;
use crate::instructions::hold_close::{self, Ending};
use crate::runtime::input::AccountList;
use crate::runtime::Pubkey;

/// Rejects one hold (see the module doc for data and accounts, and `hold_close::end`, where it is
/// tested, for the checks).
pub fn process(program_id: &Pubkey, list: &AccountList, data: &[u8]) -> ProgramResult {
    hold_close::end(program_id, list, data, Ending::Rejected)
}

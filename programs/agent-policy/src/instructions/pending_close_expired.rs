//! `pending_close_expired` — anyone closes a hold at or after its `expires_at`: nothing moves, the
//! rent returns to whoever paid it (so a hold can never lock the payer's lamports for good).
//!
//! Data (8 bytes): discriminator `sha256("global:pending_close_expired")[..8]`.
//!
//! Accounts:
//! 0. `agent`          writable — `Agent` of this program (its open-hold count drops)
//! 1. `pending`        writable — `PendingTransaction` with `pending.agent == agent`
//! 2. `rent_receiver`  writable — must be `pending.rent_payer`
//!
//! A confidential hold takes four more (a public hold ignores them: absent, or anything):
//! 3. `equality_proof`             writable — the pinned Token context
//! 4. `ciphertext_validity_proof`  writable — the pinned Token context
//! 5. `range_proof`                writable — the pinned Token context
//! 6. `zk_elgamal_proof_program`   `ZkE1Gama1Proof11111111111111111111111111111`
//!
//! The contexts are closed to `rent_receiver` and `agent.confidential_hold` is cleared, as in
//! `pending_reject` (see `hold_close::ClosingHold::release`).
//!
//! Errors: `WrongPendingTransaction`, `WrongRentReceiver`, `TransactionNotExpired`
//! (now < expires_at).
//!
//! Emits `TransactionExpired`.

use crate::error::ProgramResult;
use crate::instructions::hold_close::{self, Ending};
use crate::runtime::input::AccountList;
use crate::runtime::Pubkey;

/// Closes one expired hold (see the module doc for data and accounts, and `hold_close::end`, where it is
/// tested, for the checks).
pub fn process(program_id: &Pubkey, list: &AccountList, data: &[u8]) -> ProgramResult {
    hold_close::end(program_id, list, data, Ending::Expired)
}

//! On-chain account layouts: zero-copy, byte-array fields, a fixed `LEN`, and a checked loader that
//! verifies owner, length and discriminator before any field is read.

pub mod config;

use crate::error::PolicyError;
use crate::runtime::account::AccountView;
use crate::runtime::Pubkey;

/// Checks that `account` is owned by `program_id`, is at least `len` bytes and starts with
/// `discriminator` — the gate every typed read of an account goes through.
pub fn check_account(
    account: &AccountView,
    program_id: &Pubkey,
    discriminator: &[u8; 8],
    len: usize,
) -> Result<(), PolicyError> {
    if account.owner() != program_id {
        return Err(PolicyError::WrongAccountOwner);
    }
    let data = account.data();
    if data.len() < len || &data[..8] != discriminator {
        return Err(PolicyError::WrongAccountData);
    }
    Ok(())
}

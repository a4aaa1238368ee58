//! On-chain account layouts: zero-copy, byte-array fields, a fixed `LEN`, and a checked loader that
//! verifies owner, length and discriminator before any field is read.
//!
//! Each type is a `#[repr(C)]` struct of byte arrays and little-endian integers (alignment 1,
//! every byte pattern valid), so a checked `&[u8]` of at least `LEN` bytes can be viewed as the
//! struct in place — no copies. Each is declared once with `layout::account!`, field by field at
//! its documented offset, and every offset is asserted at compile time.

pub mod agent;
pub mod config;
pub mod handle;
pub mod layout;
pub mod pending;
pub mod policy;
pub mod receipt;

use crate::error::PolicyError;
use crate::runtime::account::AccountView;
use crate::runtime::{keys_eq, Pubkey};

/// Checks that `account` is owned by `program_id`, is at least `len` bytes and starts with
/// `discriminator` — the gate every typed read of an account goes through.
pub fn check_account(
    account: &AccountView,
    program_id: &Pubkey,
    discriminator: &[u8; 8],
    len: usize,
) -> Result<(), PolicyError> {
    if !keys_eq(account.owner(), program_id) {
        return Err(PolicyError::WrongAccountOwner);
    }
    let data = account.data();
    // One 8-byte compare (data.len() >= len >= 8 is checked first).
    if data.len() < len.max(8)
        || unsafe { core::ptr::read_unaligned(data.as_ptr() as *const u64) } != u64::from_le_bytes(*discriminator)
    {
        return Err(PolicyError::WrongAccountData);
    }
    Ok(())
}

/// A zero-copy account type of this program.
///
/// # Safety
/// Implementors are `#[repr(C)]` structs of `u8` arrays and types with the same property
/// (alignment 1, no padding, no invalid bit patterns), starting with the 8-byte discriminator.
pub unsafe trait AccountType: Sized {
    const DISCRIMINATOR: [u8; 8];
    const LEN: usize = core::mem::size_of::<Self>();
}

/// The account as `T`, after the owner, length and discriminator checks.
#[inline]
pub fn load<'a, T: AccountType>(account: &'a AccountView, program_id: &Pubkey) -> Result<&'a T, PolicyError> {
    check_account(account, program_id, &T::DISCRIMINATOR, T::LEN)?;
    // Checked above: at least LEN bytes; T has alignment 1 and no invalid bit patterns.
    Ok(unsafe { &*(account.data().as_ptr() as *const T) })
}

/// [`load`] for an account the instruction writes: also checks it was passed writable.
#[inline]
#[allow(clippy::mut_from_ref)]
pub fn load_mut<'a, T: AccountType>(account: &'a AccountView, program_id: &Pubkey) -> Result<&'a mut T, PolicyError> {
    if !account.is_writable() {
        return Err(PolicyError::AccountNotWritable);
    }
    check_account(account, program_id, &T::DISCRIMINATOR, T::LEN)?;
    Ok(unsafe { &mut *(account.data_mut().as_mut_ptr() as *mut T) })
}

/// A just-created account (this program's, `LEN` zeroed bytes) as `T` with its discriminator set.
/// Aborts if the account is shorter than `LEN` — a bug in the creating instruction, never input.
#[inline]
#[allow(clippy::mut_from_ref)]
pub fn init<T: AccountType>(account: &AccountView) -> &mut T {
    let data = account.data_mut();
    if data.len() < T::LEN {
        unsafe { crate::runtime::syscalls::abort() }
    }
    data[..8].copy_from_slice(&T::DISCRIMINATOR);
    unsafe { &mut *(data.as_mut_ptr() as *mut T) }
}

/// Whether an address is still free for `create_pda_account`: owned by the System program with no
/// data (a lamport pre-funding by anyone does not count as initialized).
#[inline]
pub fn is_uninitialized(account: &AccountView) -> bool {
    keys_eq(account.owner(), &crate::runtime::SYSTEM_PROGRAM_ID) && account.data_len() == 0
}

/// The bump of `account`, which must be the canonical PDA of `seeds` under `program_id`
/// (`WrongPda`) and not created yet (`AccountAlreadyInitialized`, see [`is_uninitialized`]).
pub fn find_free_pda(account: &AccountView, seeds: &[&[u8]], program_id: &Pubkey) -> Result<u8, PolicyError> {
    let (expected, bump) = crate::runtime::pda::find_program_address(seeds, program_id)?;
    if !keys_eq(account.key(), &expected) {
        return Err(PolicyError::WrongPda);
    }
    if !is_uninitialized(account) {
        return Err(PolicyError::AccountAlreadyInitialized);
    }
    Ok(bump)
}

/// `(value, slot)` -> the value, clamped to the slot: stored lengths are trusted only up to their
/// array's size, so a corrupt length can never index out of bounds.
#[inline]
pub(crate) fn prefix(bytes: &[u8], len: u8) -> &[u8] {
    &bytes[..(len as usize).min(bytes.len())]
}

#[cfg(test)]
pub(crate) mod test_support {
    //! Host-side accounts laid out exactly as the loader serializes them, and account bytes.
    use super::AccountType;
    use crate::runtime::account::AccountView;
    use crate::runtime::input::test_support::{serialize, Entry, TestAccount};
    use crate::runtime::Pubkey;

    /// One serialized account and its view (the buffer must outlive the view).
    pub struct HostAccount {
        pub buffer: Vec<u8>,
    }

    impl HostAccount {
        pub fn new(key: Pubkey, owner: Pubkey, data: Vec<u8>, writable: bool) -> Self {
            let buffer = serialize(
                &[Entry::Account(TestAccount {
                    key,
                    owner,
                    lamports: 1,
                    data,
                    is_signer: false,
                    is_writable: writable,
                })],
                &[],
                &[0; 32],
            );
            Self { buffer }
        }

        pub fn view(&mut self) -> AccountView {
            unsafe { AccountView::new(self.buffer.as_mut_ptr().add(8)) }
        }
    }

    /// A fresh `T`'s bytes: `T::LEN` zeroes but for its discriminator.
    pub fn blank<T: AccountType>() -> Vec<u8> {
        let mut data = vec![0u8; T::LEN];
        data[..8].copy_from_slice(&T::DISCRIMINATOR);
        data
    }

    /// `data` viewed as `T`, as `state::load` would after its checks.
    pub fn view<T: AccountType>(data: &mut [u8]) -> &mut T {
        assert!(data.len() >= T::LEN);
        unsafe { &mut *(data.as_mut_ptr() as *mut T) }
    }
}

#[cfg(test)]
mod tests {
    use super::test_support::{blank, HostAccount};
    use super::*;
    use crate::state::agent::Agent;

    const PROGRAM: Pubkey = [7; 32];

    #[test]
    fn loads_an_account_of_this_program_with_the_right_discriminator() {
        let mut account = HostAccount::new([1; 32], PROGRAM, blank::<Agent>(), false);
        assert!(load::<Agent>(&account.view(), &PROGRAM).is_ok());
    }

    #[test]
    fn refuses_another_owner_a_short_account_or_another_type() {
        let mut foreign = HostAccount::new([1; 32], [8; 32], blank::<Agent>(), true);
        assert_eq!(
            load::<Agent>(&foreign.view(), &PROGRAM).err(),
            Some(PolicyError::WrongAccountOwner)
        );
        let mut short = HostAccount::new([1; 32], PROGRAM, blank::<Agent>()[..Agent::LEN - 1].to_vec(), true);
        assert_eq!(
            load::<Agent>(&short.view(), &PROGRAM).err(),
            Some(PolicyError::WrongAccountData)
        );
        let mut other_type = blank::<Agent>();
        other_type[..8].copy_from_slice(&crate::discriminator::account::POLICY);
        let mut other = HostAccount::new([1; 32], PROGRAM, other_type, true);
        assert_eq!(
            load::<Agent>(&other.view(), &PROGRAM).err(),
            Some(PolicyError::WrongAccountData)
        );
        let mut empty = HostAccount::new([1; 32], PROGRAM, vec![], true);
        assert_eq!(
            load::<Agent>(&empty.view(), &PROGRAM).err(),
            Some(PolicyError::WrongAccountData)
        );
    }

    #[test]
    fn load_mut_needs_a_writable_account() {
        let mut read_only = HostAccount::new([1; 32], PROGRAM, blank::<Agent>(), false);
        assert_eq!(
            load_mut::<Agent>(&read_only.view(), &PROGRAM).err(),
            Some(PolicyError::AccountNotWritable)
        );
        let mut writable = HostAccount::new([1; 32], PROGRAM, blank::<Agent>(), true);
        assert!(load_mut::<Agent>(&writable.view(), &PROGRAM).is_ok());
    }

    #[test]
    fn prefix_never_trusts_a_stored_length_past_its_array() {
        assert_eq!(prefix(&[1, 2, 3], 2), &[1, 2]);
        assert_eq!(prefix(&[1, 2, 3], 200), &[1, 2, 3]);
    }
}

//! Parses the loader's serialized input (aligned format of BPF loader v2 and the upgradeable loader):
//!
//! ```text
//! u64 account count
//! per account: u8 duplicate marker (0xff = first occurrence, else the index it duplicates)
//!   first occurrence: u8 is_signer, u8 is_writable, u8 executable, 4 bytes padding, [u8;32] key,
//!     [u8;32] owner, u64 lamports, u64 data_len, data, 10 KiB growth room, padding to 8, u64 rent_epoch
//!   duplicate: 7 bytes padding
//! u64 instruction data length, instruction data, [u8;32] program id
//! ```

use super::account::{offset, AccountView, MAX_PERMITTED_DATA_INCREASE};
use super::Pubkey;
use crate::error::PolicyError;
use core::mem::MaybeUninit;

/// Accounts beyond this many are skipped over but not exposed (no instruction takes more).
pub const MAX_ACCOUNTS: usize = 32;

const NON_DUPLICATE: u8 = u8::MAX;
/// A duplicate entry: the marker and 7 bytes of padding.
const DUPLICATE_STRIDE: usize = 8;

/// Bytes one non-duplicate account takes: header, data, growth room, padding to 8, rent_epoch.
/// Wrapping arithmetic: the runtime bounds `data_len` (10 MiB), far from overflow, and this runs
/// for every account of every instruction.
#[inline(always)]
fn account_stride(data_len: usize) -> usize {
    (offset::DATA + MAX_PERMITTED_DATA_INCREASE + 7 + 8).wrapping_add(data_len) & !7
}

pub struct Input<'a> {
    /// The first `account_count` entries are initialized.
    accounts: [MaybeUninit<AccountView>; MAX_ACCOUNTS],
    account_count: usize,
    pub data: &'a [u8],
    pub program_id: &'a Pubkey,
}

impl<'a> Input<'a> {
    /// The accounts in instruction order; a duplicate is the same view as its first occurrence.
    #[inline]
    pub fn accounts(&self) -> AccountList<'_> {
        // The first `account_count` entries were written by `parse`.
        let accounts =
            unsafe { core::slice::from_raw_parts(self.accounts.as_ptr() as *const AccountView, self.account_count) };
        AccountList { accounts }
    }
}

/// The instruction's accounts, fetched by position with a clear error when one is missing.
pub struct AccountList<'a> {
    accounts: &'a [AccountView],
}

impl AccountList<'_> {
    pub fn len(&self) -> usize {
        self.accounts.len()
    }

    pub fn is_empty(&self) -> bool {
        self.accounts.is_empty()
    }

    #[inline]
    pub fn get(&self, index: usize) -> Option<AccountView> {
        self.accounts.get(index).copied()
    }

    /// The accounts from `index` on (none when there are fewer): the trailing, variable part of
    /// an instruction's accounts.
    #[inline]
    pub fn rest(&self, index: usize) -> &[AccountView] {
        self.accounts.get(index..).unwrap_or(&[])
    }

    /// The first `N` accounts, or `NotEnoughAccounts`: one length check for a whole instruction.
    #[inline]
    pub fn first<const N: usize>(&self) -> Result<&[AccountView; N], PolicyError> {
        match self.accounts.get(..N) {
            // Exactly N elements.
            Some(head) => Ok(unsafe { &*(head.as_ptr() as *const [AccountView; N]) }),
            None => Err(PolicyError::NotEnoughAccounts),
        }
    }
}

/// # Safety
/// `input` must point at a serialized input produced by the loader (or a test buffer with the same
/// layout) that stays valid and unaliased for `'a`. The loader guarantees a duplicate marker
/// names an earlier account.
#[inline]
pub unsafe fn parse<'a>(input: *mut u8) -> Input<'a> {
    let mut cursor = input;
    let count = core::ptr::read_unaligned(cursor as *const u64) as usize;
    cursor = cursor.add(8);
    // Left uninitialized: only the first `count` entries (at most MAX_ACCOUNTS) are written and read.
    let mut accounts: [MaybeUninit<AccountView>; MAX_ACCOUNTS] = [const { MaybeUninit::uninit() }; MAX_ACCOUNTS];
    let stored = count.min(MAX_ACCOUNTS);
    // Fully unrolled over the output slots (constant stack offsets, no slot pointer or loop
    // counter to advance): ~8 instructions per account on the path every instruction takes.
    let first = accounts.as_mut_ptr() as *mut AccountView;
    macro_rules! step {
        ($($i:literal)*) => {$(
            if $i < stored {
                if *cursor == NON_DUPLICATE {
                    let view = AccountView::new(cursor);
                    first.add($i).write(view);
                    cursor = cursor.add(account_stride(view.data_len()));
                } else {
                    // The marker names an earlier account, already written.
                    first.add($i).write(first.add(*cursor as usize).read());
                    cursor = cursor.add(DUPLICATE_STRIDE);
                }
            }
        )*};
    }
    step!(0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31);
    const _: () = assert!(MAX_ACCOUNTS == 32);
    // Accounts past MAX_ACCOUNTS are skipped, not exposed.
    for _ in stored..count {
        if *cursor == NON_DUPLICATE {
            cursor = cursor.add(account_stride(AccountView::new(cursor).data_len()));
        } else {
            cursor = cursor.add(DUPLICATE_STRIDE);
        }
    }
    let data_len = core::ptr::read_unaligned(cursor as *const u64) as usize;
    cursor = cursor.add(8);
    let data = core::slice::from_raw_parts(cursor, data_len);
    cursor = cursor.add(data_len);
    let program_id = &*(cursor as *const Pubkey);
    Input {
        accounts,
        account_count: stored,
        data,
        program_id,
    }
}

#[cfg(test)]
pub(crate) mod test_support {
    //! Builds serialized inputs on the host, byte for byte as the loader lays them out.
    use super::*;

    #[derive(Clone)]
    pub struct TestAccount {
        pub key: Pubkey,
        pub owner: Pubkey,
        pub lamports: u64,
        pub data: Vec<u8>,
        pub is_signer: bool,
        pub is_writable: bool,
    }

    pub enum Entry {
        Account(TestAccount),
        DuplicateOf(u8),
    }

    pub fn serialize(entries: &[Entry], data: &[u8], program_id: &Pubkey) -> Vec<u8> {
        let mut out = Vec::new();
        out.extend_from_slice(&(entries.len() as u64).to_le_bytes());
        for entry in entries {
            match entry {
                Entry::Account(a) => {
                    out.extend_from_slice(&[NON_DUPLICATE, a.is_signer as u8, a.is_writable as u8, 0]);
                    out.extend_from_slice(&(a.data.len() as u32).to_le_bytes());
                    out.extend_from_slice(&a.key);
                    out.extend_from_slice(&a.owner);
                    out.extend_from_slice(&a.lamports.to_le_bytes());
                    out.extend_from_slice(&(a.data.len() as u64).to_le_bytes());
                    out.extend_from_slice(&a.data);
                    out.resize(out.len() + MAX_PERMITTED_DATA_INCREASE, 0);
                    while out.len() % 8 != 0 {
                        out.push(0);
                    }
                    out.extend_from_slice(&u64::MAX.to_le_bytes());
                }
                Entry::DuplicateOf(index) => {
                    out.push(*index);
                    out.extend_from_slice(&[0; 7]);
                }
            }
        }
        out.extend_from_slice(&(data.len() as u64).to_le_bytes());
        out.extend_from_slice(data);
        out.extend_from_slice(program_id);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::test_support::*;
    use super::*;

    fn account(key: u8, data_len: usize, signer: bool, writable: bool) -> TestAccount {
        TestAccount {
            key: [key; 32],
            owner: [9; 32],
            lamports: 1_000 + key as u64,
            data: (0..data_len).map(|i| i as u8).collect(),
            is_signer: signer,
            is_writable: writable,
        }
    }

    #[test]
    fn parses_accounts_duplicates_data_and_program_id() {
        // Given three accounts (the third a duplicate of the first) with odd data lengths
        let mut buffer = serialize(
            &[
                Entry::Account(account(1, 3, true, false)),
                Entry::Account(account(2, 13, false, true)),
                Entry::DuplicateOf(0),
            ],
            &[7, 8, 9],
            &[5; 32],
        );
        // When it is parsed
        let input = unsafe { parse(buffer.as_mut_ptr()) };
        // Then every field reads back, and the duplicate is the first account
        let accounts = input.accounts();
        assert_eq!(accounts.len(), 3);
        let first = accounts.get(0).unwrap();
        assert_eq!(first.key(), &[1; 32]);
        assert!(first.is_signer() && !first.is_writable());
        assert_eq!(first.data(), &[0, 1, 2]);
        let second = accounts.get(1).unwrap();
        assert_eq!(second.lamports(), 1_002);
        assert_eq!(second.data_len(), 13);
        assert!(second.is_writable());
        assert_eq!(accounts.get(2).unwrap().key(), &[1; 32]);
        assert!(accounts.get(3).is_none());
        assert_eq!(input.data, &[7, 8, 9]);
        assert_eq!(input.program_id, &[5; 32]);
    }

    #[test]
    fn parses_an_instruction_with_no_accounts() {
        let mut buffer = serialize(&[], &[], &[3; 32]);
        let input = unsafe { parse(buffer.as_mut_ptr()) };
        assert!(input.accounts().is_empty());
        assert!(input.data.is_empty());
        assert_eq!(input.program_id, &[3; 32]);
    }
}

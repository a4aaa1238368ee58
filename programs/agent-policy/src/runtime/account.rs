//! A zero-copy view of one account inside the loader's serialized input.
//!
//! Every accessor reads the serialized bytes live, so values the runtime rewrites after a CPI (data
//! length, lamports, owner of a freshly created account) are always current.

use super::Pubkey;
use crate::error::PolicyError;

/// Offsets inside one serialized (non-duplicate) account, aligned input format (loader v2/v3).
pub(crate) mod offset {
    pub const IS_SIGNER: usize = 1;
    pub const IS_WRITABLE: usize = 2;
    pub const EXECUTABLE: usize = 3;
    pub const KEY: usize = 8;
    pub const OWNER: usize = 40;
    pub const LAMPORTS: usize = 72;
    pub const DATA_LEN: usize = 80;
    pub const DATA: usize = 88;
}

/// Bytes the runtime reserves after each account's data so a program can grow it in place.
pub const MAX_PERMITTED_DATA_INCREASE: usize = 10 * 1024;

#[derive(Clone, Copy)]
pub struct AccountView {
    base: *mut u8,
}

impl AccountView {
    /// # Safety
    /// `base` must point at the duplicate-marker byte of a non-duplicate account in the loader's
    /// input region (or a buffer with the same layout), valid for the whole instruction.
    pub(crate) unsafe fn new(base: *mut u8) -> Self {
        Self { base }
    }

    fn read_u64(&self, at: usize) -> u64 {
        unsafe { core::ptr::read_unaligned(self.base.add(at) as *const u64) }
    }

    pub fn key(&self) -> &Pubkey {
        unsafe { &*(self.base.add(offset::KEY) as *const Pubkey) }
    }

    pub fn owner(&self) -> &Pubkey {
        unsafe { &*(self.base.add(offset::OWNER) as *const Pubkey) }
    }

    pub fn is_signer(&self) -> bool {
        unsafe { *self.base.add(offset::IS_SIGNER) != 0 }
    }

    pub fn is_writable(&self) -> bool {
        unsafe { *self.base.add(offset::IS_WRITABLE) != 0 }
    }

    pub fn executable(&self) -> bool {
        unsafe { *self.base.add(offset::EXECUTABLE) != 0 }
    }

    /// The loader's raw 0/1 bytes `is_signer`, `is_writable`, `executable` (offsets 1, 2, 3) and
    /// the byte after them, as one little-endian word: the C-ABI `SolAccountInfo` stores the same
    /// three bytes in the same order (then a padding byte), so one load and one store copy them.
    pub(crate) fn flag_bytes(&self) -> u32 {
        unsafe { core::ptr::read_unaligned(self.base.add(offset::IS_SIGNER) as *const u32) }
    }

    pub fn lamports(&self) -> u64 {
        self.read_u64(offset::LAMPORTS)
    }

    pub fn data_len(&self) -> usize {
        self.read_u64(offset::DATA_LEN) as usize
    }

    pub fn data(&self) -> &[u8] {
        unsafe { core::slice::from_raw_parts(self.base.add(offset::DATA), self.data_len()) }
    }

    /// Mutable data. The caller must have checked `is_writable` and ownership: the runtime rejects
    /// the instruction afterwards otherwise, but a clear error before is the program's job.
    #[allow(clippy::mut_from_ref)]
    pub fn data_mut(&self) -> &mut [u8] {
        unsafe { core::slice::from_raw_parts_mut(self.base.add(offset::DATA), self.data_len()) }
    }

    /// Sets the account's lamports. The runtime accepts the change only if the program owns a
    /// debited account and the instruction's lamport total is unchanged.
    pub fn set_lamports(&self, lamports: u64) {
        unsafe { core::ptr::write_unaligned(self.base.add(offset::LAMPORTS) as *mut u64, lamports) }
    }

    /// Closes an account this program owns: every lamport to `receiver`, data zeroed and
    /// truncated, owner the System program. Nothing is left to read back as the old type, and the
    /// address can only be reused by creating a fresh account. `receiver` must be a different,
    /// writable account (the caller checks both).
    pub fn close_to(&self, receiver: &AccountView) -> Result<(), PolicyError> {
        if super::keys_eq(self.key(), receiver.key()) {
            return Err(PolicyError::WrongRentReceiver);
        }
        let total = receiver
            .lamports()
            .checked_add(self.lamports())
            .ok_or(PolicyError::ArithmeticOverflow)?;
        receiver.set_lamports(total);
        self.set_lamports(0);
        self.data_mut().fill(0);
        // The loader reads the new length back (a shrink is always allowed) and then the new owner;
        // an owner change is accepted because the data is now empty (zeroed).
        unsafe {
            core::ptr::write_unaligned(self.base.add(offset::DATA_LEN) as *mut u64, 0);
            core::ptr::write_bytes(self.base.add(offset::OWNER), 0, 32);
        }
        Ok(())
    }

    /// Pointers the C-ABI CPI needs (`SolAccountInfo`).
    pub(crate) fn lamports_ptr(&self) -> *mut u64 {
        unsafe { self.base.add(offset::LAMPORTS) as *mut u64 }
    }
    pub(crate) fn data_ptr(&self) -> *mut u8 {
        unsafe { self.base.add(offset::DATA) }
    }
    pub(crate) fn owner_ptr(&self) -> *const Pubkey {
        unsafe { self.base.add(offset::OWNER) as *const Pubkey }
    }
    pub(crate) fn key_ptr(&self) -> *const Pubkey {
        unsafe { self.base.add(offset::KEY) as *const Pubkey }
    }
}

//! Program-derived addresses. Finding a bump costs ~1.5k CU per try, so the program finds it once
//! (when an account is created), stores it, and later re-derives with the stored bump.

use super::{syscalls, Pubkey};
use crate::error::PolicyError;

const MAX_SEEDS: usize = 16;

#[repr(C)]
#[derive(Clone, Copy)]
struct SeedSlice {
    addr: *const u8,
    len: u64,
}

fn seed_slices(seeds: &[&[u8]]) -> Result<([SeedSlice; MAX_SEEDS], usize), PolicyError> {
    if seeds.len() > MAX_SEEDS {
        return Err(PolicyError::WrongPda);
    }
    let mut slices = [SeedSlice {
        addr: core::ptr::null(),
        len: 0,
    }; MAX_SEEDS];
    for (slot, seed) in slices.iter_mut().zip(seeds) {
        *slot = SeedSlice {
            addr: seed.as_ptr(),
            len: seed.len() as u64,
        };
    }
    Ok((slices, seeds.len()))
}

/// The canonical (highest-bump) PDA of `seeds` under `program_id`, and its bump.
pub fn find_program_address(seeds: &[&[u8]], program_id: &Pubkey) -> Result<(Pubkey, u8), PolicyError> {
    let (slices, count) = seed_slices(seeds)?;
    let mut address = [0u8; 32];
    let mut bump = 0u8;
    let status = unsafe {
        syscalls::sol_try_find_program_address(
            slices.as_ptr() as *const u8,
            count as u64,
            program_id.as_ptr(),
            address.as_mut_ptr(),
            &mut bump,
        )
    };
    syscalls::check(status, PolicyError::WrongPda)?;
    Ok((address, bump))
}

/// The PDA of `seeds` (the bump included as the last seed) under `program_id`.
pub fn create_program_address(seeds: &[&[u8]], program_id: &Pubkey) -> Result<Pubkey, PolicyError> {
    let (slices, count) = seed_slices(seeds)?;
    let mut address = [0u8; 32];
    let status = unsafe {
        syscalls::sol_create_program_address(
            slices.as_ptr() as *const u8,
            count as u64,
            program_id.as_ptr(),
            address.as_mut_ptr(),
        )
    };
    syscalls::check(status, PolicyError::WrongPda)?;
    Ok(address)
}

//! Syscall declarations. On SBF they are resolved by name by the loader (our linker emits a dynamic
//! relocation per name); on the host they do not exist, and the pure logic tested there never calls
//! them — the host versions abort loudly if a test ever does.

use crate::error::PolicyError;

/// A syscall's returned status as a result: 0 is success, anything else is `error`.
#[inline(always)]
pub fn check(status: u64, error: PolicyError) -> Result<(), PolicyError> {
    if status == 0 {
        Ok(())
    } else {
        Err(error)
    }
}

#[cfg(target_arch = "bpf")]
extern "C" {
    pub fn sol_log_(message: *const u8, len: u64);
    pub fn sol_log_data(slices: *const u8, count: u64);
    pub fn sol_create_program_address(seeds: *const u8, seeds_len: u64, program_id: *const u8, out: *mut u8) -> u64;
    pub fn sol_try_find_program_address(
        seeds: *const u8,
        seeds_len: u64,
        program_id: *const u8,
        out: *mut u8,
        bump: *mut u8,
    ) -> u64;
    pub fn sol_invoke_signed_c(
        instruction: *const u8,
        account_infos: *const u8,
        account_infos_len: u64,
        signer_seeds: *const u8,
        signer_seeds_len: u64,
    ) -> u64;
    pub fn sol_get_rent_sysvar(out: *mut u8) -> u64;
    pub fn sol_get_clock_sysvar(out: *mut u8) -> u64;
    pub fn sol_sha256(slices: *const u8, count: u64, out: *mut u8) -> u64;
    pub fn sol_memcmp_(a: *const u8, b: *const u8, n: u64, result: *mut i32);
    pub fn sol_curve_group_op(curve_id: u64, group_op: u64, left: *const u8, right: *const u8, result: *mut u8) -> u64;
    pub fn abort() -> !;
}

#[cfg(not(target_arch = "bpf"))]
#[allow(clippy::missing_safety_doc)] // stand-ins with the extern declarations' contracts
mod host {
    //! Host stand-ins. Syscalls the pure tests never need panic; the clock, CPI and event
    //! syscalls talk to a per-thread [`record`] so instruction tests can run whole paths.
    use std::cell::RefCell;

    fn unavailable(name: &str) -> ! {
        panic!("syscall {name} is only available on-chain")
    }

    /// `(pointer, length)` pairs as the runtime's `SolBytes`/`SolSignerSeed`: two words each.
    unsafe fn pairs(addr: *const u8, count: u64) -> Vec<Vec<u8>> {
        let words = core::slice::from_raw_parts(addr as *const usize, 2 * count as usize);
        words
            .chunks(2)
            .map(|pair| core::slice::from_raw_parts(pair[0] as *const u8, pair[1]).to_vec())
            .collect()
    }

    pub mod record {
        //! What host code "did on-chain": the clock it saw, the CPIs it made, the events it logged.
        use super::RefCell;

        /// One cross-program call: callee, `(key, writable, signer)` per account, data, signer seeds.
        #[derive(Clone, Debug)]
        pub struct Invocation {
            pub program_id: [u8; 32],
            pub accounts: Vec<([u8; 32], bool, bool)>,
            pub data: Vec<u8>,
            pub signer_seeds: Vec<Vec<Vec<u8>>>,
        }

        thread_local! {
            pub(super) static UNIX_TIMESTAMP: RefCell<Option<i64>> = const { RefCell::new(None) };
            pub(super) static SLOT: RefCell<u64> = const { RefCell::new(0) };
            pub(super) static INVOCATIONS: RefCell<Vec<Invocation>> = const { RefCell::new(Vec::new()) };
            pub(super) static EVENTS: RefCell<Vec<Vec<u8>>> = const { RefCell::new(Vec::new()) };
        }

        /// Sets the clock host code reads and clears the recorded calls and events.
        pub fn reset(unix_timestamp: Option<i64>) {
            UNIX_TIMESTAMP.with(|t| *t.borrow_mut() = unix_timestamp);
            SLOT.with(|s| *s.borrow_mut() = 0);
            INVOCATIONS.with(|i| i.borrow_mut().clear());
            EVENTS.with(|e| e.borrow_mut().clear());
        }

        /// Sets the Clock's slot (0 after `reset`) for the host code that reads it.
        pub fn set_slot(slot: u64) {
            SLOT.with(|s| *s.borrow_mut() = slot);
        }

        pub fn invocations() -> Vec<Invocation> {
            INVOCATIONS.with(|i| i.borrow().clone())
        }

        /// Every `sol_log_data` entry, its slices joined.
        pub fn events() -> Vec<Vec<u8>> {
            EVENTS.with(|e| e.borrow().clone())
        }
    }

    pub unsafe fn sol_log_(_message: *const u8, _len: u64) {}
    pub unsafe fn sol_log_data(slices: *const u8, count: u64) {
        let joined = pairs(slices, count).concat();
        record::EVENTS.with(|e| e.borrow_mut().push(joined));
    }
    pub unsafe fn sol_create_program_address(_: *const u8, _: u64, _: *const u8, _: *mut u8) -> u64 {
        unavailable("sol_create_program_address")
    }
    pub unsafe fn sol_try_find_program_address(_: *const u8, _: u64, _: *const u8, _: *mut u8, _: *mut u8) -> u64 {
        unavailable("sol_try_find_program_address")
    }
    /// Records the call (C ABI: `SolInstruction { program_id, accounts, account_len, data,
    /// data_len }`, metas `{ pubkey, is_writable, is_signer }`) and reports success.
    pub unsafe fn sol_invoke_signed_c(
        instruction: *const u8,
        _: *const u8,
        _: u64,
        signers: *const u8,
        signers_len: u64,
    ) -> u64 {
        let words = instruction as *const usize;
        let program_id = *(*words as *const [u8; 32]);
        let metas = *words.add(1) as *const u8;
        let accounts = (0..*words.add(2))
            .map(|i| {
                let meta = metas.add(i * 16);
                (
                    *(*(meta as *const usize) as *const [u8; 32]),
                    *meta.add(8) != 0,
                    *meta.add(9) != 0,
                )
            })
            .collect();
        let data = core::slice::from_raw_parts(*words.add(3) as *const u8, *words.add(4)).to_vec();
        // `SolSignerSeeds { addr, len }` per signer, each pointing at `SolSignerSeed { addr, len }`s.
        let signer_seeds = if signers_len == 0 {
            Vec::new()
        } else {
            let signer_words = core::slice::from_raw_parts(signers as *const usize, 2 * signers_len as usize);
            signer_words
                .chunks(2)
                .map(|signer| pairs(signer[0] as *const u8, signer[1] as u64))
                .collect()
        };
        record::INVOCATIONS.with(|i| {
            i.borrow_mut().push(record::Invocation {
                program_id,
                accounts,
                data,
                signer_seeds,
            })
        });
        0
    }
    pub unsafe fn sol_get_rent_sysvar(_: *mut u8) -> u64 {
        unavailable("sol_get_rent_sysvar")
    }
    /// The clock set with `record::reset` (and `record::set_slot`); unset, it panics like the other
    /// on-chain-only syscalls.
    pub unsafe fn sol_get_clock_sysvar(out: *mut u8) -> u64 {
        let Some(now) = record::UNIX_TIMESTAMP.with(|t| *t.borrow()) else {
            unavailable("sol_get_clock_sysvar")
        };
        core::ptr::write_bytes(out, 0, 40);
        let slot = record::SLOT.with(|s| *s.borrow());
        core::ptr::copy_nonoverlapping(slot.to_le_bytes().as_ptr(), out, 8);
        core::ptr::copy_nonoverlapping(now.to_le_bytes().as_ptr(), out.add(32), 8);
        0
    }
    /// Host stand-in with the syscall's contract (an array of `(pointer, length)` pairs hashed as
    /// one message), so the create paths' hashing is testable off-chain.
    pub unsafe fn sol_sha256(slices: *const u8, count: u64, out: *mut u8) -> u64 {
        let hash = crate::sha256_const::sha256(&pairs(slices, count).concat());
        core::ptr::copy_nonoverlapping(hash.as_ptr(), out, 32);
        0
    }
    pub unsafe fn sol_curve_group_op(_: u64, _: u64, _: *const u8, _: *const u8, _: *mut u8) -> u64 {
        unavailable("sol_curve_group_op")
    }
    pub unsafe fn abort() -> ! {
        unavailable("abort")
    }
}

#[cfg(not(target_arch = "bpf"))]
pub use host::*;

//! The Clock sysvar through `sol_get_clock_sysvar` (no sysvar account to pass or verify).

use super::syscalls;

/// The Clock sysvar as the syscall writes it: five 8-byte fields.
#[repr(C)]
struct Clock {
    slot: u64,
    epoch_start_timestamp: i64,
    epoch: u64,
    leader_schedule_epoch: u64,
    unix_timestamp: i64,
}

#[inline]
fn read() -> Clock {
    // Written whole by the syscall.
    let mut clock = core::mem::MaybeUninit::<Clock>::uninit();
    unsafe {
        syscalls::sol_get_clock_sysvar(clock.as_mut_ptr() as *mut u8);
        clock.assume_init()
    }
}

/// The cluster's `unix_timestamp` (seconds, UTC): the only clock the policy rules use.
#[inline]
pub fn unix_timestamp() -> i64 {
    read().unix_timestamp
}

/// The current slot and `unix_timestamp` from one syscall: receipts age in slots (finality and
/// blockhash expiry are counted in slots and blocks, not seconds) and keep the time for readers.
#[inline]
pub fn slot_and_unix_timestamp() -> (u64, i64) {
    let clock = read();
    (clock.slot, clock.unix_timestamp)
}

/// The current slot.
#[inline]
pub fn slot() -> u64 {
    read().slot
}

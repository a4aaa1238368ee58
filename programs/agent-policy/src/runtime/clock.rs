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

/// The cluster's `unix_timestamp` (seconds, UTC): the only clock the policy rules use.
#[inline]
pub fn unix_timestamp() -> i64 {
    // Written whole by the syscall.
    let mut clock = core::mem::MaybeUninit::<Clock>::uninit();
    unsafe {
        syscalls::sol_get_clock_sysvar(clock.as_mut_ptr() as *mut u8);
        clock.assume_init().unix_timestamp
    }
}

//! The SBF entrypoint and panic handler (compiled only for the chain).

use crate::error::PolicyError;
use crate::processor;
use crate::runtime::{input, log, syscalls};

/// Called by the loader with the serialized input; returns 0 or `Custom(code)`.
///
/// # Safety
/// Only the runtime calls this, with a valid input region.
#[no_mangle]
pub unsafe extern "C" fn entrypoint(input: *mut u8) -> u64 {
    let input = input::parse(input);
    match processor::process(&input) {
        Ok(()) => 0,
        Err(error) => {
            log_error(error);
            error.code()
        }
    }
}

/// Logs `AnchorError occurred. Error Code: <Name>. Error Number: <n>. Error Message: <msg>.` — the
/// line Anchor clients parse — without `core::fmt` (it would pull in several KB of code).
fn log_error(error: PolicyError) {
    let mut buffer = [0u8; 256];
    let mut len = 0;
    let mut push = |bytes: &[u8]| {
        let end = (len + bytes.len()).min(buffer.len());
        buffer[len..end].copy_from_slice(&bytes[..end - len]);
        len = end;
    };
    push(b"AnchorError occurred. Error Code: ");
    push(error.name().as_bytes());
    push(b". Error Number: ");
    let mut digits = [0u8; 20];
    push(format_u64(error.code(), &mut digits));
    push(b". Error Message: ");
    push(error.message().as_bytes());
    push(b".");
    unsafe { syscalls::sol_log_(buffer.as_ptr(), len as u64) }
}

fn format_u64(mut value: u64, digits: &mut [u8; 20]) -> &[u8] {
    let mut start = digits.len();
    loop {
        start -= 1;
        digits[start] = b'0' + (value % 10) as u8;
        value /= 10;
        if value == 0 {
            return &digits[start..];
        }
    }
}

#[panic_handler]
fn panic(_info: &core::panic::PanicInfo) -> ! {
    log::log("agent-policy: panicked");
    unsafe { syscalls::abort() }
}

//! Program logs: plain messages (`Program log: ...`) and Anchor events (`Program data: <base64>`).

use super::syscalls;

/// Logs a message. Never pass anything secret or an amount of a confidential transfer.
pub fn log(message: &str) {
    unsafe { syscalls::sol_log_(message.as_ptr(), message.len() as u64) }
}

/// The `SolBytes` the `sol_log_data` syscall reads: one (pointer, length) pair per slice.
#[repr(C)]
struct SolBytes {
    addr: *const u8,
    len: u64,
}

/// Emits `parts` concatenated as one `Program data:` entry — Anchor's event encoding when the first
/// part is the event discriminator and the rest is the Borsh body.
pub fn log_data(parts: &[&[u8]]) {
    // Anchor clients decode exactly one base64 field per event, so the parts are joined into one
    // buffer (events are small; 512 bytes covers every event the program defines).
    let mut buffer = [0u8; 512];
    let mut len = 0usize;
    for part in parts {
        let end = len + part.len();
        if end > buffer.len() {
            unsafe { syscalls::abort() }
        }
        buffer[len..end].copy_from_slice(part);
        len = end;
    }
    let slice = SolBytes {
        addr: buffer.as_ptr(),
        len: len as u64,
    };
    unsafe { syscalls::sol_log_data(&slice as *const SolBytes as *const u8, 1) }
}

/// Emits one contiguous buffer as a `Program data:` entry, without copying it: for events laid out
/// as a `#[repr(C)]` byte struct on the hot path.
#[inline]
pub fn log_bytes(bytes: &[u8]) {
    let slice = SolBytes {
        addr: bytes.as_ptr(),
        len: bytes.len() as u64,
    };
    unsafe { syscalls::sol_log_data(&slice as *const SolBytes as *const u8, 1) }
}

//! SHA-256 at run time through the `sol_sha256` syscall (~100 CU + bytes). Used only where an
//! account is created from a handle; hot paths read the stored hash instead.

use super::syscalls;

/// `(pointer, length)` of one input slice, the `SolBytes` the syscall reads.
#[repr(C)]
struct SolBytes {
    addr: *const u8,
    len: u64,
}

const MAX_PARTS: usize = 4;

/// `sha256(parts[0] ++ parts[1] ++ ...)` for at most four parts (more abort: a program bug).
pub fn sha256(parts: &[&[u8]]) -> [u8; 32] {
    let mut slices: [SolBytes; MAX_PARTS] = core::array::from_fn(|_| SolBytes {
        addr: core::ptr::null(),
        len: 0,
    });
    if parts.len() > MAX_PARTS {
        unsafe { syscalls::abort() }
    }
    for (slot, part) in slices.iter_mut().zip(parts) {
        *slot = SolBytes {
            addr: part.as_ptr(),
            len: part.len() as u64,
        };
    }
    let mut out = [0u8; 32];
    unsafe { syscalls::sol_sha256(slices.as_ptr() as *const u8, parts.len() as u64, out.as_mut_ptr()) };
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hashes_the_concatenation_of_its_parts() {
        assert_eq!(
            sha256(&[b"acme", b"/", b"bot"]),
            crate::sha256_const::sha256(b"acme/bot")
        );
        assert_eq!(sha256(&[]), crate::sha256_const::sha256(b""));
    }
}

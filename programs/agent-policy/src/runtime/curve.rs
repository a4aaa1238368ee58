//! Ristretto255 group operations through the `sol_curve_group_op` syscall: the arithmetic the
//! confidential path needs on ElGamal ciphertexts and Pedersen commitments (add, subtract, and
//! multiply by a public `u64`), without carrying a curve implementation in the program.
//!
//! Points are 32-byte compressed Ristretto encodings; the syscall decompresses them and fails on
//! any non-canonical or invalid encoding (`InvalidCurvePoint`), so a point read from an account
//! or a context is validated by the first operation that uses it. Costs (Agave): add 521 CU,
//! subtract 519, multiply 2,208.
//!
//! Syscall: `sol_curve_group_op(curve_id, group_op, left, right, result) -> u64` with curve
//! `CURVE25519_RISTRETTO = 1`, ops `ADD = 0`, `SUB = 1` (left - right), `MUL = 2` (left the
//! 32-byte little-endian scalar, right the point); 0 on success.

use super::syscalls;
use crate::error::PolicyError;

/// A compressed Ristretto255 point.
pub type Point = [u8; 32];

/// The group's identity (the encoding of the neutral element is all zeros).
pub const IDENTITY: Point = [0; 32];

/// `G`, the Ristretto255 basepoint (zk-sdk's Pedersen value generator):
/// `e2f2ae0a6abc4e71a884a961c500515f58e30b6aa582dd8db6a65945e08d2d76`.
pub const BASEPOINT: Point = [
    0xe2, 0xf2, 0xae, 0x0a, 0x6a, 0xbc, 0x4e, 0x71, 0xa8, 0x84, 0xa9, 0x61, 0xc5, 0x00, 0x51, 0x5f, 0x58, 0xe3, 0x0b,
    0x6a, 0xa5, 0x82, 0xdd, 0x8d, 0xb6, 0xa6, 0x59, 0x45, 0xe0, 0x8d, 0x2d, 0x76,
];

const CURVE25519_RISTRETTO: u64 = 1;
const ADD: u64 = 0;
const SUB: u64 = 1;
const MUL: u64 = 2;

/// One syscall: `left op right`, or `InvalidCurvePoint` when the runtime refuses an input.
#[inline(never)]
fn group_op(op: u64, left: &[u8; 32], right: &Point) -> Result<Point, PolicyError> {
    let mut result = IDENTITY;
    let status = unsafe {
        syscalls::sol_curve_group_op(
            CURVE25519_RISTRETTO,
            op,
            left.as_ptr(),
            right.as_ptr(),
            result.as_mut_ptr(),
        )
    };
    syscalls::check(status, PolicyError::InvalidCurvePoint)?;
    Ok(result)
}

/// `a + b`.
#[inline]
pub fn add(a: &Point, b: &Point) -> Result<Point, PolicyError> {
    group_op(ADD, a, b)
}

/// `a - b`.
#[inline]
pub fn sub(a: &Point, b: &Point) -> Result<Point, PolicyError> {
    group_op(SUB, a, b)
}

/// The scalar `value` as the syscall reads it: 32 bytes little-endian (always canonical, far
/// below the group order).
#[inline]
fn scalar(value: u64) -> [u8; 32] {
    let mut bytes = [0u8; 32];
    bytes[..8].copy_from_slice(&value.to_le_bytes());
    bytes
}

/// `scalar * point`. Zero gives the identity without a syscall (and without validating `point`):
/// `0 * G` for a zero limit or an exhausted daily allowance costs nothing.
#[inline]
pub fn mul_u64(scalar_value: u64, point: &Point) -> Result<Point, PolicyError> {
    if scalar_value == 0 {
        return Ok(IDENTITY);
    }
    group_op(MUL, &scalar(scalar_value), point)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_basepoint_is_ristretto255s_published_encoding() {
        let hex: String = BASEPOINT.iter().map(|b| format!("{b:02x}")).collect();
        assert_eq!(hex, "e2f2ae0a6abc4e71a884a961c500515f58e30b6aa582dd8db6a65945e08d2d76");
        assert_eq!(IDENTITY, [0; 32]);
    }

    #[test]
    fn scalars_are_32_bytes_little_endian() {
        let bytes = scalar(0x0102_0304_0506_0708);
        assert_eq!(&bytes[..8], &[8, 7, 6, 5, 4, 3, 2, 1]);
        assert_eq!(&bytes[8..], &[0; 24]);
        assert_eq!(scalar(u64::MAX)[..8], [0xff; 8]);
    }

    #[test]
    fn multiplying_by_zero_is_the_identity_without_a_syscall() {
        // Any bytes, even an invalid encoding: no syscall is made (the host one would panic).
        assert_eq!(mul_u64(0, &[0xff; 32]), Ok(IDENTITY));
        assert_eq!(mul_u64(0, &BASEPOINT), Ok(IDENTITY));
    }

    #[test]
    #[should_panic(expected = "syscall sol_curve_group_op is only available on-chain")]
    fn every_other_operation_goes_to_the_syscall() {
        let _ = mul_u64(1, &BASEPOINT);
    }

    #[test]
    #[should_panic(expected = "syscall sol_curve_group_op is only available on-chain")]
    fn add_goes_to_the_syscall() {
        let _ = add(&BASEPOINT, &IDENTITY);
    }

    #[test]
    #[should_panic(expected = "syscall sol_curve_group_op is only available on-chain")]
    fn sub_goes_to_the_syscall() {
        let _ = sub(&BASEPOINT, &IDENTITY);
    }
}

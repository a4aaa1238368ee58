//! Rent exemption without floating point: the Rent sysvar's `exemption_threshold` is an `f64`
//! (2.0 on every cluster so far), and SBF has no floats, so its IEEE-754 bits are decoded as an
//! integer. A fractional threshold is refused rather than rounded, so the program can never create
//! an account that is not rent-exempt.

use super::syscalls;
use crate::error::PolicyError;

/// Bytes of account metadata the runtime charges rent for on top of the data.
pub const ACCOUNT_STORAGE_OVERHEAD: u64 = 128;

/// The Rent sysvar as `sol_get_rent_sysvar` writes it (`u64`, `f64` bits, `u8`, padded to 24).
#[repr(C)]
#[derive(Default)]
struct RentSysvar {
    lamports_per_byte_year: u64,
    exemption_threshold_bits: u64,
    burn_percent: u8,
}

/// Minimum lamports for an account of `data_len` bytes to be rent-exempt under the live Rent sysvar.
pub fn minimum_balance(data_len: u64) -> Result<u64, PolicyError> {
    let mut rent = RentSysvar::default();
    unsafe { syscalls::sol_get_rent_sysvar(&mut rent as *mut RentSysvar as *mut u8) };
    minimum_balance_for(data_len, rent.lamports_per_byte_year, rent.exemption_threshold_bits)
}

/// Pure form of [`minimum_balance`]: `(overhead + len) * lamports_per_byte_year * threshold`.
pub fn minimum_balance_for(
    data_len: u64,
    lamports_per_byte_year: u64,
    exemption_threshold_bits: u64,
) -> Result<u64, PolicyError> {
    let threshold = integer_from_f64_bits(exemption_threshold_bits).ok_or(PolicyError::UnsupportedRent)?;
    ACCOUNT_STORAGE_OVERHEAD
        .checked_add(data_len)
        .and_then(|bytes| bytes.checked_mul(lamports_per_byte_year))
        .and_then(|per_year| per_year.checked_mul(threshold))
        .ok_or(PolicyError::ArithmeticOverflow)
}

/// The value of a non-negative, integral `f64` below 2^32 given as its bits, or None.
pub fn integer_from_f64_bits(bits: u64) -> Option<u64> {
    if bits == 0 {
        return Some(0);
    }
    if bits >> 63 != 0 {
        return None;
    }
    let exponent = ((bits >> 52) & 0x7ff) as i64 - 1023;
    if !(0..32).contains(&exponent) {
        return None;
    }
    let mantissa = (bits & ((1u64 << 52) - 1)) | (1u64 << 52);
    let shift = 52 - exponent as u32;
    if mantissa & ((1u64 << shift) - 1) != 0 {
        return None; // fractional part
    }
    Some(mantissa >> shift)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_integral_thresholds_and_refuses_fractions() {
        assert_eq!(integer_from_f64_bits(2.0f64.to_bits()), Some(2));
        assert_eq!(integer_from_f64_bits(1.0f64.to_bits()), Some(1));
        assert_eq!(integer_from_f64_bits(0.0f64.to_bits()), Some(0));
        assert_eq!(integer_from_f64_bits(3_000_000.0f64.to_bits()), Some(3_000_000));
        assert_eq!(integer_from_f64_bits(1.5f64.to_bits()), None);
        assert_eq!(integer_from_f64_bits(0.5f64.to_bits()), None);
        assert_eq!(integer_from_f64_bits((-2.0f64).to_bits()), None);
        assert_eq!(integer_from_f64_bits(f64::NAN.to_bits()), None);
        assert_eq!(integer_from_f64_bits(4_294_967_296.0f64.to_bits()), None);
    }

    #[test]
    fn matches_the_mainnet_rent_for_a_zero_byte_account() {
        // Mainnet: 3480 lamports per byte-year, threshold 2.0 -> 890_880 lamports for 0 bytes.
        assert_eq!(minimum_balance_for(0, 3480, 2.0f64.to_bits()), Ok(890_880));
        assert_eq!(minimum_balance_for(165, 3480, 2.0f64.to_bits()), Ok(2_039_280));
    }

    #[test]
    fn reports_overflow_instead_of_wrapping() {
        assert_eq!(
            minimum_balance_for(u64::MAX - 10, 3480, 2.0f64.to_bits()),
            Err(PolicyError::ArithmeticOverflow)
        );
    }
}

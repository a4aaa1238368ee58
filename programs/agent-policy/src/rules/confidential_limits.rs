//! Spend limits over amounts the program never sees (CONFIDENTIAL.md): the ciphertexts the
//! program computes from a confidential transfer's validity context, and the checks that the
//! prover's limit proofs are about exactly those ciphertexts.
//!
//! With `A = (C_a, D_a)` the transfer amount's ciphertext under the source key, `m` the
//! per-transfer bound, `k = L_day - P` (the daily limit less today's public spend) and `S` today's
//! stored confidential spend (zero when none counts today):
//!
//! ```text
//! A     = (C_lo + 2^16*C_hi, D_lo + 2^16*D_hi)     encrypts a
//! X_tx  = (m*G - C_a, identity - D_a)              encrypts m - a
//! X_day = (k*G - S_C - C_a, identity - S_D - D_a)  encrypts k - spent - a
//! ```
//!
//! Ciphertexts are 64 bytes, commitment then handle (compressed Ristretto255). The limit proofs:
//! an equality context per `X` (its ciphertext byte-equal to `X`, its pubkey the validity
//! context's source key) and one batched range context (type 6 or 7) whose `commitments[0]` and
//! `[1]` are the two equality contexts' commitments. Every mismatch is `LimitProofMismatch`.
//!
//! Cost: the static checks come first and make no syscall. Then `A` is 2 MUL + 2 ADD, `S + A`
//! 2 ADD (none when `S` is zero), each `X` one MUL and two SUB, sharing `identity - D_a`
//! (about 11.4k CU without `S`, 12.5k with it). The program stores `S' = S + A`, which `X_day`
//! needs anyway.

use crate::error::{PolicyError, ProgramResult};
use crate::runtime::curve::{self, Point, BASEPOINT, IDENTITY};
use crate::runtime::keys_eq;
use crate::zk_context::{EqualityContext, RangeContext, ValidityContext};

/// A twisted ElGamal ciphertext: commitment (32) then handle (32).
pub type Ciphertext = [u8; 64];

/// `2^16`: the weight of the amount's `hi` half (Token-2022 splits amounts into 16 + 32 bits).
const HI_WEIGHT: u64 = 1 << 16;

/// The range proof types whose first two commitments the program reads (U64, U128).
pub const LIMIT_RANGE_TYPES: [u8; 2] = [6, 7];

#[inline(always)]
fn commitment(ciphertext: &Ciphertext) -> &Point {
    // The first 32 of 64 bytes.
    unsafe { &*(ciphertext.as_ptr() as *const Point) }
}

#[inline(always)]
fn handle(ciphertext: &Ciphertext) -> &Point {
    // The last 32 of 64 bytes.
    unsafe { &*(ciphertext.as_ptr().add(32) as *const Point) }
}

#[inline(always)]
fn join(commitment: &Point, handle: &Point) -> Ciphertext {
    let mut ciphertext = [0u8; 64];
    ciphertext[..32].copy_from_slice(commitment);
    ciphertext[32..].copy_from_slice(handle);
    ciphertext
}

/// `lo + 2^16 * hi` for one component: MUL then ADD.
#[inline(never)]
fn combine(lo: &Point, hi: &Point) -> Result<Point, PolicyError> {
    curve::add(lo, &curve::mul_u64(HI_WEIGHT, hi)?)
}

/// `A`, the transfer amount's ciphertext under the source key, from the validity context's `lo`
/// and `hi` commitments and source handles (handle 0).
pub fn transfer_amount(validity: &ValidityContext) -> Result<Ciphertext, PolicyError> {
    let c = combine(validity.commitment_lo(), validity.commitment_hi())?;
    let d = combine(validity.source_handle_lo(), validity.source_handle_hi())?;
    Ok(join(&c, &d))
}

/// `S + A`, or `A` when no confidential spend counts today (`S` is the identity pair).
pub fn add_spend(spend: Option<&Ciphertext>, amount: &Ciphertext) -> Result<Ciphertext, PolicyError> {
    match spend {
        None => Ok(*amount),
        Some(spend) => {
            let c = curve::add(commitment(spend), commitment(amount))?;
            let d = curve::add(handle(spend), handle(amount))?;
            Ok(join(&c, &d))
        }
    }
}

/// `k = L_day - P`: the daily limit less today's public spend, checked (a policy lowered below
/// today's public spend refuses every confidential spend today with `DailyLimitExceeded`).
#[inline]
pub fn daily_remaining(daily_limit: u64, public_spent_today: u64) -> Result<u64, PolicyError> {
    daily_limit
        .checked_sub(public_spent_today)
        .ok_or(PolicyError::DailyLimitExceeded)
}

/// The three limit contexts, read and checked (owner, size, type, authority) by `zk_context`.
pub struct LimitProofs<'a> {
    pub transaction: EqualityContext<'a>,
    pub daily: EqualityContext<'a>,
    pub range: RangeContext<'a>,
}

/// The checks that need no curve operation: both equality contexts are under the transfer's
/// source key, and the range proof covers exactly their commitments (`[0]` the per-transfer one,
/// `[1]` the daily one) with an allowed proof type.
pub fn check_statements(proofs: &LimitProofs, source_pubkey: &[u8; 32]) -> ProgramResult {
    if !LIMIT_RANGE_TYPES.contains(&proofs.range.proof_type)
        || !keys_eq(proofs.transaction.pubkey, source_pubkey)
        || !keys_eq(proofs.daily.pubkey, source_pubkey)
        || !keys_eq(&proofs.range.commitments[0], proofs.transaction.commitment)
        || !keys_eq(&proofs.range.commitments[1], proofs.daily.commitment)
    {
        return Err(PolicyError::LimitProofMismatch);
    }
    Ok(())
}

/// Byte equality of two ciphertexts, as eight word compares.
#[inline(always)]
fn ciphertext_eq(a: &Ciphertext, b: &Ciphertext) -> bool {
    keys_eq(commitment(a), commitment(b)) && keys_eq(handle(a), handle(b))
}

/// `(bound*G - commitment, negated_handle)`: the ciphertext of `bound - x` for the `x` encrypted
/// by (`commitment`, `-negated_handle`).
#[inline(never)]
fn bound_minus(bound: u64, commitment: &Point, negated_handle: &Point) -> Result<Ciphertext, PolicyError> {
    let c = curve::sub(&curve::mul_u64(bound, &BASEPOINT)?, commitment)?;
    Ok(join(&c, negated_handle))
}

/// Everything one limit check reads.
pub struct LimitCheck<'a> {
    /// `A` ([`transfer_amount`]).
    pub amount: &'a Ciphertext,
    /// Today's stored spend `S`, `None` when none counts today.
    pub spend_today: Option<&'a Ciphertext>,
    /// `m`: `min(per_transaction_limit, hitl_threshold)` to execute, `per_transaction_limit` to hold.
    pub transaction_bound: u64,
    /// `k = L_day - P` ([`daily_remaining`]).
    pub daily_remaining: u64,
    pub proofs: &'a LimitProofs<'a>,
}

/// Verifies the limit proofs against `X_tx` and `X_day` (call [`check_statements`] first) and
/// returns `S' = S + A`, the spend to store if the transfer executes today.
pub fn check(limit: &LimitCheck) -> Result<Ciphertext, PolicyError> {
    let amount = limit.amount;
    let negated_d = curve::sub(&IDENTITY, handle(amount))?;
    let x_tx = bound_minus(limit.transaction_bound, commitment(amount), &negated_d)?;
    if !ciphertext_eq(&x_tx, limit.proofs.transaction.ciphertext) {
        return Err(PolicyError::LimitProofMismatch);
    }
    let total = add_spend(limit.spend_today, amount)?;
    // identity - S_D - D_a, from the handle X_tx already negated (the same count as negating T_D).
    let negated_total_d = match limit.spend_today {
        None => negated_d,
        Some(spend) => curve::sub(&negated_d, handle(spend))?,
    };
    let x_day = bound_minus(limit.daily_remaining, commitment(&total), &negated_total_d)?;
    if !ciphertext_eq(&x_day, limit.proofs.daily.ciphertext) {
        return Err(PolicyError::LimitProofMismatch);
    }
    Ok(total)
}

#[cfg(test)]
mod tests {
    //! The static checks and the arithmetic that needs no syscall. The curve math itself runs in
    //! the LiteSVM suites against real zk-sdk proofs (the host has no `sol_curve_group_op`).
    use super::*;

    const SOURCE_KEY: [u8; 32] = [0x51; 32];
    const Z_TX: [u8; 32] = [0x61; 32];
    const Z_DAY: [u8; 32] = [0x62; 32];

    struct Bytes {
        x_tx: Ciphertext,
        x_day: Ciphertext,
        commitments: [[u8; 32]; 8],
        bit_lengths: [u8; 8],
        keys: [[u8; 32]; 2],
    }

    fn bytes() -> Bytes {
        let mut commitments = [[0u8; 32]; 8];
        commitments[0] = Z_TX;
        commitments[1] = Z_DAY;
        Bytes {
            x_tx: [0x71; 64],
            x_day: [0x72; 64],
            commitments,
            bit_lengths: [32, 32, 0, 0, 0, 0, 0, 0],
            keys: [SOURCE_KEY, SOURCE_KEY],
        }
    }

    fn proofs(bytes: &Bytes, proof_type: u8) -> LimitProofs<'_> {
        LimitProofs {
            transaction: EqualityContext {
                pubkey: &bytes.keys[0],
                ciphertext: &bytes.x_tx,
                commitment: &Z_TX,
            },
            daily: EqualityContext {
                pubkey: &bytes.keys[1],
                ciphertext: &bytes.x_day,
                commitment: &Z_DAY,
            },
            range: RangeContext {
                proof_type,
                commitments: &bytes.commitments,
                bit_lengths: &bytes.bit_lengths,
            },
        }
    }

    #[test]
    fn statements_match_when_keys_and_commitments_line_up() {
        let b = bytes();
        assert_eq!(check_statements(&proofs(&b, 6), &SOURCE_KEY), Ok(()));
        assert_eq!(check_statements(&proofs(&b, 7), &SOURCE_KEY), Ok(()));
    }

    #[test]
    fn a_range_proof_of_another_type_is_refused() {
        let b = bytes();
        for kind in [0, 5, 8, 12] {
            assert_eq!(
                check_statements(&proofs(&b, kind), &SOURCE_KEY),
                Err(PolicyError::LimitProofMismatch)
            );
        }
    }

    #[test]
    fn an_equality_proof_under_another_key_is_refused() {
        let b = bytes();
        assert_eq!(
            check_statements(&proofs(&b, 6), &[0x52; 32]),
            Err(PolicyError::LimitProofMismatch)
        );
        for which in 0..2 {
            let mut other = bytes();
            other.keys[which][31] ^= 1;
            assert_eq!(
                check_statements(&proofs(&other, 6), &SOURCE_KEY),
                Err(PolicyError::LimitProofMismatch),
                "equality context {which}"
            );
        }
    }

    #[test]
    fn the_range_commitments_must_be_the_equality_commitments_in_order() {
        // Swapped: a range over [Z_day, Z_tx] proves the bounds the other way round
        let mut swapped = bytes();
        swapped.commitments.swap(0, 1);
        assert_eq!(
            check_statements(&proofs(&swapped, 6), &SOURCE_KEY),
            Err(PolicyError::LimitProofMismatch)
        );
        // A range over something else than Z_day in slot 1
        let mut other = bytes();
        other.commitments[1][0] ^= 1;
        assert_eq!(
            check_statements(&proofs(&other, 7), &SOURCE_KEY),
            Err(PolicyError::LimitProofMismatch)
        );
        // Z_tx only in a later slot is not enough
        let mut later = bytes();
        later.commitments[0] = [0; 32];
        later.commitments[2] = Z_TX;
        assert_eq!(
            check_statements(&proofs(&later, 6), &SOURCE_KEY),
            Err(PolicyError::LimitProofMismatch)
        );
    }

    #[test]
    fn the_daily_allowance_is_the_limit_less_todays_public_spend_checked() {
        assert_eq!(daily_remaining(250, 0), Ok(250));
        assert_eq!(daily_remaining(250, 250), Ok(0));
        assert_eq!(daily_remaining(250, 251), Err(PolicyError::DailyLimitExceeded));
        assert_eq!(daily_remaining(0, u64::MAX), Err(PolicyError::DailyLimitExceeded));
    }

    #[test]
    fn no_spend_today_adds_nothing_and_makes_no_syscall() {
        let amount = [0x33; 64];
        assert_eq!(add_spend(None, &amount), Ok(amount));
    }

    #[test]
    fn ciphertexts_are_commitment_then_handle() {
        let ciphertext = join(&[1; 32], &[2; 32]);
        assert_eq!(commitment(&ciphertext), &[1; 32]);
        assert_eq!(handle(&ciphertext), &[2; 32]);
        assert!(ciphertext_eq(&ciphertext, &join(&[1; 32], &[2; 32])));
        assert!(!ciphertext_eq(&ciphertext, &join(&[1; 32], &[3; 32])));
        assert!(!ciphertext_eq(&ciphertext, &join(&[0; 32], &[2; 32])));
    }

    #[test]
    #[should_panic(expected = "syscall sol_curve_group_op is only available on-chain")]
    fn the_limit_math_goes_to_the_curve_syscall() {
        let b = bytes();
        let p = proofs(&b, 6);
        let _ = check(&LimitCheck {
            amount: &[0x33; 64],
            spend_today: None,
            transaction_bound: 100,
            daily_remaining: 250,
            proofs: &p,
        });
    }
}

//! `Policy` — PDA `["policy", agent]`: the rules the agent's spends must pass, and today's spend.
//! Only the agent's owner edits it (`policy_update`); `agent_transfer` and `pending_approve`
//! update the day's spend.
//!
//! ```text
//! offset size field
//!      0    8 discriminator            sha256("account:Policy")[..8]
//!      8   32 agent                    the Agent this policy governs
//!     40    4 version                  u32 LE: 1 at creation, +1 per update
//!     44    2 active_start_minute      u16 LE, minute of the UTC day, inclusive
//!     46    2 active_end_minute        u16 LE, exclusive; start > end wraps; start == end all day
//!     48    8 per_transaction_limit    u64 LE base units
//!     56    8 daily_limit              u64 LE base units per UTC day
//!     64    8 hitl_threshold           u64 LE: amounts above are held for the owner
//!     72    4 approval_window_seconds  u32 LE, 1..=604800
//!     76    1 mint_count               0..=4
//!     77    1 pattern_count            0..=16
//!     78    1 bump                     canonical bump of the policy PDA
//!     79    1 reserved
//!     80    8 day_index                i64 LE: UTC day (unix_timestamp.div_euclid(86400)) of spent_today
//!     88    8 spent_today              u64 LE base units (public path)
//!     96    8 updated_at               i64 LE unix seconds of creation or last update
//!    104  128 allowed_mints            4 x 32, the first mint_count used, the rest zero
//!    232 1056 recipient_patterns       16 x 66 (kind u8 [0 name, 1 suffix, 2 address], len u8, value [u8; 64])
//!   1288   64 spend_ciphertext         today's confidential spend S: ElGamal (commitment 32, handle 32)
//!                                       under spend_pubkey; all zero = nothing (the identity pair)
//!   1352   32 spend_pubkey             the ElGamal key S is encrypted under (the source's key)
//!   1384   36 spend_decryptable        the prover's AE-encrypted running total ("prover state")
//!   1420  124 reserved
//! ```
//!
//! `spend_ciphertext` counts on the same `day_index` as `spent_today`: a day after it makes both
//! zero for today's rules, a day before it (a clock that stepped back) keeps both. The public path
//! zeroes the confidential fields when it writes a later day, so a stale `S` is never today's.

use super::layout::{account, I64, U16, U32, U64};
use crate::discriminator::account::POLICY;
use crate::error::PolicyError;
use crate::rules::limits::{DailySpend, Limits};
use crate::rules::policy_validation::{self, Settings, MAX_MINTS, MAX_RECIPIENT_PATTERNS};
use crate::rules::recipients::RecipientPattern;
use crate::runtime::{is_zero_key, keys_eq, Pubkey};

pub const POLICY_SEED: &[u8] = b"policy";
pub const LEN: usize = 1544;

account! {
    pub struct Policy (LEN, POLICY) {
        8 agent: Pubkey,
        40 version: U32,
        44 active_start_minute: U16,
        46 active_end_minute: U16,
        48 per_transaction_limit: U64,
        56 daily_limit: U64,
        64 hitl_threshold: U64,
        72 approval_window_seconds: U32,
        76 mint_count: u8,
        77 pattern_count: u8,
        78 bump: u8,
        79 reserved0: u8,
        80 day_index: I64,
        88 spent_today: U64,
        96 updated_at: I64,
        104 allowed_mints: [Pubkey; MAX_MINTS],
        232 recipient_patterns: [RecipientPattern; MAX_RECIPIENT_PATTERNS],
        1288 spend_ciphertext: [u8; 64],
        1352 spend_pubkey: Pubkey,
        1384 spend_decryptable: [u8; 36],
        1420 reserved: [u8; 124],
    }
}

/// What an executed confidential spend stores (`Policy::set_confidential_spend`).
pub struct ConfidentialSpend<'a> {
    pub today: i64,
    /// `S' = S + A`, commitment then handle.
    pub ciphertext: &'a [u8; 64],
    /// The source account's ElGamal key.
    pub pubkey: &'a Pubkey,
    pub decryptable: &'a [u8; 36],
}

impl Policy {
    #[inline]
    pub fn limits(&self) -> Limits {
        Limits {
            per_transaction: self.per_transaction_limit.get(),
            daily: self.daily_limit.get(),
            hitl_threshold: self.hitl_threshold.get(),
        }
    }

    #[inline]
    pub fn daily_spend(&self) -> DailySpend {
        DailySpend {
            day_index: self.day_index.get(),
            spent: self.spent_today.get(),
        }
    }

    /// Stores the public path's day spend. A later day than the stored one also zeroes the
    /// confidential spend of the earlier day (the public path runs only while today's `S` is zero,
    /// so on the same day there is nothing to clear).
    #[inline]
    pub fn set_daily_spend(&mut self, spend: DailySpend) {
        if spend.day_index != self.day_index.get() {
            self.clear_confidential_spend();
        }
        self.day_index.set(spend.day_index);
        self.spent_today.set(spend.spent);
    }

    #[cold]
    #[inline(never)]
    fn clear_confidential_spend(&mut self) {
        self.spend_ciphertext = [0; 64];
        self.spend_pubkey = [0; 32];
        self.spend_decryptable = [0; 36];
    }

    /// Whether a confidential spend counts on `today` (its day is not stale and `S` is not the
    /// all-zero identity pair): the public path is then refused (`PublicSpendAfterConfidential`).
    ///
    /// Only the commitment half `S_C = total*G + r*H` is tested (four word compares on the hot
    /// path): it is the identity only for `total = r = 0 (mod l)` — anything else would need
    /// log_G(H) — and then the handle `r*P` is the identity too, so the pair is zero exactly when
    /// its first 32 bytes are.
    #[inline(always)]
    pub fn has_confidential_spend_on(&self, today: i64) -> bool {
        today <= self.day_index.get() && !is_zero_key(self.spend_commitment())
    }

    #[inline(always)]
    fn spend_commitment(&self) -> &[u8; 32] {
        // The first 32 of 64 bytes.
        unsafe { &*(self.spend_ciphertext.as_ptr() as *const [u8; 32]) }
    }

    /// Today's confidential spend `S` and its key, or `None` when nothing counts today (stale day
    /// or the all-zero identity pair, which encrypts 0 under any key).
    #[inline]
    pub fn confidential_spend_on(&self, today: i64) -> Option<(&[u8; 64], &Pubkey)> {
        if self.has_confidential_spend_on(today) {
            Some((&self.spend_ciphertext, &self.spend_pubkey))
        } else {
            None
        }
    }

    /// Records an executed confidential spend: `S'`, its key and the prover's blob, counted on
    /// `max(day_index, today)` like the public path (a new day also restarts `spent_today`).
    pub fn set_confidential_spend(&mut self, spend: &ConfidentialSpend) {
        if spend.today > self.day_index.get() {
            self.day_index.set(spend.today);
            self.spent_today.set(0);
        }
        self.spend_ciphertext = *spend.ciphertext;
        self.spend_pubkey = *spend.pubkey;
        self.spend_decryptable = *spend.decryptable;
    }

    /// The mints in use (a corrupt count is clamped to the array, never trusted past it).
    #[inline]
    pub fn allowed_mints(&self) -> &[Pubkey] {
        &self.allowed_mints[..(self.mint_count as usize).min(MAX_MINTS)]
    }

    /// The patterns in use (clamped like `allowed_mints`).
    #[inline]
    pub fn recipient_patterns(&self) -> &[RecipientPattern] {
        &self.recipient_patterns[..(self.pattern_count as usize).min(MAX_RECIPIENT_PATTERNS)]
    }

    /// The asset rule: the mint must be one of the allowed mints (an empty list allows none).
    #[inline]
    pub fn check_mint(&self, mint: &Pubkey) -> Result<(), PolicyError> {
        if self.allowed_mints().iter().any(|allowed| keys_eq(allowed, mint)) {
            Ok(())
        } else {
            Err(PolicyError::MintNotAllowed)
        }
    }

    /// Validates the owner-chosen settings as stored (after create or update wrote them).
    pub fn validate(&self) -> Result<(), PolicyError> {
        // Counts are checked before the slices that clamp them are taken.
        if self.mint_count as usize > MAX_MINTS {
            return Err(PolicyError::TooManyMints);
        }
        if self.pattern_count as usize > MAX_RECIPIENT_PATTERNS {
            return Err(PolicyError::TooManyRecipientPatterns);
        }
        policy_validation::validate(&Settings {
            active_start_minute: self.active_start_minute.get(),
            active_end_minute: self.active_end_minute.get(),
            approval_window_seconds: self.approval_window_seconds.get(),
            allowed_mints: self.allowed_mints(),
            recipient_patterns: self.recipient_patterns(),
        })
    }

    /// Replaces the allowed mints; slots past the new list are zeroed.
    pub fn set_allowed_mints(&mut self, mints: &[Pubkey]) -> Result<(), PolicyError> {
        if mints.len() > MAX_MINTS {
            return Err(PolicyError::TooManyMints);
        }
        self.allowed_mints = [[0; 32]; MAX_MINTS];
        self.allowed_mints[..mints.len()].copy_from_slice(mints);
        self.mint_count = mints.len() as u8;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::recipients::{KIND_ADDRESS, KIND_SUFFIX};
    use crate::state::test_support::{blank, view};

    #[test]
    fn fields_read_from_their_documented_offsets() {
        let mut data = blank::<Policy>();
        data[40..44].copy_from_slice(&7u32.to_le_bytes());
        data[44..46].copy_from_slice(&1320u16.to_le_bytes());
        data[46..48].copy_from_slice(&360u16.to_le_bytes());
        data[48..56].copy_from_slice(&100u64.to_le_bytes());
        data[56..64].copy_from_slice(&250u64.to_le_bytes());
        data[64..72].copy_from_slice(&50u64.to_le_bytes());
        data[72..76].copy_from_slice(&3600u32.to_le_bytes());
        data[76] = 1;
        data[77] = 2;
        data[80..88].copy_from_slice(&(-3i64).to_le_bytes());
        data[88..96].copy_from_slice(&9u64.to_le_bytes());
        data[104..136].copy_from_slice(&[4; 32]);
        data[232] = KIND_SUFFIX;
        data[233] = 4;
        data[234..238].copy_from_slice(b"acme");
        data[232 + 66] = KIND_ADDRESS;
        data[232 + 67] = 32;
        data[232 + 68..232 + 100].copy_from_slice(&[5; 32]);
        let policy = view::<Policy>(&mut data);
        assert_eq!(policy.version.get(), 7);
        assert_eq!(
            (policy.active_start_minute.get(), policy.active_end_minute.get()),
            (1320, 360)
        );
        let limits = policy.limits();
        assert_eq!(
            (limits.per_transaction, limits.daily, limits.hitl_threshold),
            (100, 250, 50)
        );
        assert_eq!(policy.approval_window_seconds.get(), 3600);
        assert_eq!(
            policy.daily_spend(),
            DailySpend {
                day_index: -3,
                spent: 9
            }
        );
        assert_eq!(policy.allowed_mints(), &[[4; 32]]);
        assert_eq!(policy.recipient_patterns()[0].value(), b"acme");
        assert_eq!(policy.recipient_patterns()[1].value(), &[5; 32]);
        assert_eq!(policy.validate(), Ok(()));
        assert_eq!(policy.check_mint(&[4; 32]), Ok(()));
        assert_eq!(policy.check_mint(&[5; 32]), Err(PolicyError::MintNotAllowed));
    }

    #[test]
    fn an_empty_mint_list_allows_no_mint() {
        let mut data = blank::<Policy>();
        assert_eq!(
            view::<Policy>(&mut data).check_mint(&[4; 32]),
            Err(PolicyError::MintNotAllowed)
        );
    }

    #[test]
    fn corrupt_counts_are_refused_by_validation_and_clamped_by_readers() {
        let mut data = blank::<Policy>();
        data[72..76].copy_from_slice(&60u32.to_le_bytes());
        data[76] = 5;
        assert_eq!(view::<Policy>(&mut data).validate(), Err(PolicyError::TooManyMints));
        assert_eq!(view::<Policy>(&mut data).allowed_mints().len(), 4);
        data[76] = 0;
        data[77] = 17;
        assert_eq!(
            view::<Policy>(&mut data).validate(),
            Err(PolicyError::TooManyRecipientPatterns)
        );
        assert_eq!(view::<Policy>(&mut data).recipient_patterns().len(), 16);
    }

    #[test]
    fn set_daily_spend_writes_day_and_total() {
        let mut data = blank::<Policy>();
        view::<Policy>(&mut data).set_daily_spend(DailySpend {
            day_index: 19_723,
            spent: 42,
        });
        assert_eq!(&data[80..88], &19_723i64.to_le_bytes());
        assert_eq!(&data[88..96], &42u64.to_le_bytes());
    }

    fn with_confidential_spend(day: i64) -> Vec<u8> {
        let mut data = blank::<Policy>();
        view::<Policy>(&mut data).set_daily_spend(DailySpend {
            day_index: day,
            spent: 7,
        });
        view::<Policy>(&mut data).set_confidential_spend(&ConfidentialSpend {
            today: day,
            ciphertext: &[3; 64],
            pubkey: &[4; 32],
            decryptable: &[5; 36],
        });
        data
    }

    #[test]
    fn confidential_spend_fields_are_at_their_documented_offsets() {
        let data = with_confidential_spend(19_723);
        assert_eq!(&data[1288..1352], &[3; 64]);
        assert_eq!(&data[1352..1384], &[4; 32]);
        assert_eq!(&data[1384..1420], &[5; 36]);
        assert!(data[1420..].iter().all(|b| *b == 0));
        // Same day: the public total is kept
        assert_eq!(
            &data[80..96],
            &[&19_723i64.to_le_bytes()[..], &7u64.to_le_bytes()].concat()[..]
        );
    }

    #[test]
    fn confidential_spend_counts_on_its_day_and_on_a_clock_stepped_back_only() {
        let mut data = with_confidential_spend(100);
        let policy = view::<Policy>(&mut data);
        assert!(policy.has_confidential_spend_on(100));
        assert!(
            policy.has_confidential_spend_on(99),
            "a clock stepping back never resets"
        );
        assert!(!policy.has_confidential_spend_on(101));
        assert_eq!(policy.confidential_spend_on(100), Some((&[3; 64], &[4; 32])));
        assert_eq!(policy.confidential_spend_on(101), None);
        // The identity pair (all zero) is nothing, whatever the day
        policy.spend_ciphertext = [0; 64];
        assert!(!policy.has_confidential_spend_on(100));
        // Any non-zero byte of the commitment counts
        policy.spend_ciphertext[31] = 1;
        assert!(policy.has_confidential_spend_on(100));
    }

    #[test]
    fn a_confidential_spend_on_a_new_day_restarts_the_public_total_and_never_moves_the_day_back() {
        let mut data = with_confidential_spend(100);
        view::<Policy>(&mut data).set_confidential_spend(&ConfidentialSpend {
            today: 101,
            ciphertext: &[8; 64],
            pubkey: &[9; 32],
            decryptable: &[1; 36],
        });
        assert_eq!(
            view::<Policy>(&mut data).daily_spend(),
            DailySpend {
                day_index: 101,
                spent: 0
            }
        );
        assert_eq!(&data[1288..1352], &[8; 64]);
        // A clock stepped back to day 99: stored on day 101, public total kept
        view::<Policy>(&mut data).set_daily_spend(DailySpend {
            day_index: 101,
            spent: 5,
        });
        view::<Policy>(&mut data).set_confidential_spend(&ConfidentialSpend {
            today: 99,
            ciphertext: &[2; 64],
            pubkey: &[9; 32],
            decryptable: &[1; 36],
        });
        assert_eq!(
            view::<Policy>(&mut data).daily_spend(),
            DailySpend {
                day_index: 101,
                spent: 5
            }
        );
    }

    #[test]
    fn the_public_path_writing_a_later_day_zeroes_the_stale_confidential_spend() {
        let mut data = with_confidential_spend(100);
        // Same day (never happens with S set, the public path refuses; nothing is cleared)
        view::<Policy>(&mut data).set_daily_spend(DailySpend {
            day_index: 100,
            spent: 9,
        });
        assert_eq!(&data[1288..1352], &[3; 64]);
        view::<Policy>(&mut data).set_daily_spend(DailySpend {
            day_index: 101,
            spent: 1,
        });
        assert!(data[1288..1420].iter().all(|b| *b == 0));
        assert!(!view::<Policy>(&mut data).has_confidential_spend_on(100));
    }

    #[test]
    fn replacing_mints_zeroes_the_unused_slots() {
        let mut data = blank::<Policy>();
        let policy = view::<Policy>(&mut data);
        policy.set_allowed_mints(&[[1; 32], [2; 32], [3; 32]]).unwrap();
        policy.set_allowed_mints(&[[9; 32]]).unwrap();
        assert_eq!(data[76], 1);
        assert_eq!(&data[104..136], &[9; 32]);
        assert!(data[136..232].iter().all(|b| *b == 0));
    }
}

//! Borsh `PolicyArgs` (agent_create) and `PolicyUpdateArgs` (policy_update), read straight into a
//! `Policy`'s settings fields. Not an instruction: the shared argument types of two.
//!
//! ```text
//! PolicyArgs {
//!     per_transaction_limit: u64, daily_limit: u64, hitl_threshold: u64,
//!     active_start_minute: u16, active_end_minute: u16, approval_window_seconds: u32,
//!     allowed_mints: Vec<Pubkey>,                    // u32 count, 32 bytes each, at most 4
//!     recipient_patterns: Vec<RecipientPattern>,     // u32 count, at most 16
//! }
//! PolicyUpdateArgs { the same fields in the same order, each Option<..> (u8 0 = keep, 1 = set) }
//! enum RecipientPattern { Name(String) = 0, Suffix(String) = 1 /* after "*." */, Address(Pubkey) = 2 }
//! ```
//!
//! A count above the maximum is `TooManyMints` / `TooManyRecipientPatterns` before any item is
//! read; a string longer than a pattern slot (64) is `InvalidRecipientPattern`; anything else the
//! reader cannot decode is `InvalidInstructionData`. Grammar and value rules are
//! `Policy::validate`'s job, run on the result.

use crate::borsh::Reader;
use crate::error::PolicyError;
use crate::rules::policy_validation::{MAX_MINTS, MAX_RECIPIENT_PATTERNS};
use crate::rules::recipients::{RecipientPattern, KIND_ADDRESS};
use crate::state::policy::Policy;

const PATTERN_VARIANTS: u8 = 3;

fn read_mints(reader: &mut Reader, policy: &mut Policy) -> Result<(), PolicyError> {
    let count = reader.vec_len()?;
    if count > MAX_MINTS {
        return Err(PolicyError::TooManyMints);
    }
    policy.allowed_mints = [[0; 32]; MAX_MINTS];
    for slot in policy.allowed_mints[..count].iter_mut() {
        *slot = *reader.pubkey()?;
    }
    policy.mint_count = count as u8;
    Ok(())
}

fn read_pattern(reader: &mut Reader) -> Result<RecipientPattern, PolicyError> {
    let kind = reader.enum_tag(PATTERN_VARIANTS)?;
    if kind == KIND_ADDRESS {
        RecipientPattern::new(kind, reader.pubkey()?)
    } else {
        RecipientPattern::new(kind, reader.string()?)
    }
}

fn read_patterns(reader: &mut Reader, policy: &mut Policy) -> Result<(), PolicyError> {
    let count = reader.vec_len()?;
    if count > MAX_RECIPIENT_PATTERNS {
        return Err(PolicyError::TooManyRecipientPatterns);
    }
    policy.recipient_patterns = [RecipientPattern::EMPTY; MAX_RECIPIENT_PATTERNS];
    for slot in policy.recipient_patterns[..count].iter_mut() {
        *slot = read_pattern(reader)?;
    }
    policy.pattern_count = count as u8;
    Ok(())
}

/// How each setting comes: always (`PolicyArgs`) or behind an `Option` tag (`PolicyUpdateArgs`).
#[derive(Clone, Copy)]
enum Presence {
    Always,
    Optional,
}

impl Presence {
    /// Whether the next setting is there (reading its tag when it has one).
    #[inline(always)]
    fn next(self, reader: &mut Reader) -> Result<bool, PolicyError> {
        match self {
            Presence::Always => Ok(true),
            Presence::Optional => reader.option(),
        }
    }

    /// The next integer setting, when present, into `field` (Borsh integers and the policy's
    /// fields are both little-endian).
    #[inline(always)]
    fn read_into<const N: usize>(self, reader: &mut Reader, field: &mut [u8; N]) -> Result<(), PolicyError> {
        if self.next(reader)? {
            *field = *reader.array()?;
        }
        Ok(())
    }
}

/// The settings in their Borsh order, each read as `presence` says. Inlined into both callers, so
/// `presence` is a constant there.
#[inline(always)]
fn read_settings(reader: &mut Reader, policy: &mut Policy, presence: Presence) -> Result<(), PolicyError> {
    presence.read_into(reader, &mut policy.per_transaction_limit.0)?;
    presence.read_into(reader, &mut policy.daily_limit.0)?;
    presence.read_into(reader, &mut policy.hitl_threshold.0)?;
    presence.read_into(reader, &mut policy.active_start_minute.0)?;
    presence.read_into(reader, &mut policy.active_end_minute.0)?;
    presence.read_into(reader, &mut policy.approval_window_seconds.0)?;
    if presence.next(reader)? {
        read_mints(reader, policy)?;
    }
    if presence.next(reader)? {
        read_patterns(reader, policy)?;
    }
    Ok(())
}

/// Reads a full `PolicyArgs` into `policy`'s settings fields.
pub fn read_policy_args(reader: &mut Reader, policy: &mut Policy) -> Result<(), PolicyError> {
    read_settings(reader, policy, Presence::Always)
}

/// Reads a `PolicyUpdateArgs` into `policy`: present fields replace the stored ones, absent keep them.
pub fn read_policy_update_args(reader: &mut Reader, policy: &mut Policy) -> Result<(), PolicyError> {
    read_settings(reader, policy, Presence::Optional)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::rules::recipients::{KIND_NAME, KIND_SUFFIX};
    use crate::state::test_support::{blank, view};

    /// Borsh `PolicyArgs` as a client sends it.
    pub(crate) fn encode_policy_args(
        limits: (u64, u64, u64),
        hours: (u16, u16),
        window: u32,
        mints: &[[u8; 32]],
        patterns: &[(u8, &[u8])],
    ) -> Vec<u8> {
        let mut out = Vec::new();
        out.extend_from_slice(&limits.0.to_le_bytes());
        out.extend_from_slice(&limits.1.to_le_bytes());
        out.extend_from_slice(&limits.2.to_le_bytes());
        out.extend_from_slice(&hours.0.to_le_bytes());
        out.extend_from_slice(&hours.1.to_le_bytes());
        out.extend_from_slice(&window.to_le_bytes());
        out.extend_from_slice(&(mints.len() as u32).to_le_bytes());
        for mint in mints {
            out.extend_from_slice(mint);
        }
        out.extend_from_slice(&(patterns.len() as u32).to_le_bytes());
        for (kind, value) in patterns {
            out.push(*kind);
            if *kind != KIND_ADDRESS {
                out.extend_from_slice(&(value.len() as u32).to_le_bytes());
            }
            out.extend_from_slice(value);
        }
        out
    }

    #[test]
    fn reads_policy_args_into_the_documented_offsets() {
        // Given a full PolicyArgs
        let args = encode_policy_args(
            (100, 250, 50),
            (1320, 360),
            3600,
            &[[4; 32]],
            &[
                (KIND_NAME, b"acme"),
                (KIND_SUFFIX, b"pay.acme"),
                (KIND_ADDRESS, &[9; 32]),
            ],
        );
        let mut data = blank::<Policy>();
        // When it is read
        let mut reader = Reader::new(&args);
        read_policy_args(&mut reader, view::<Policy>(&mut data)).unwrap();
        // Then the reader is at the end and every field is in place
        assert_eq!(reader.finish(), Ok(()));
        assert_eq!(&data[44..48], &[0x28, 0x05, 0x68, 0x01]);
        assert_eq!(&data[48..56], &100u64.to_le_bytes());
        assert_eq!(&data[72..76], &3600u32.to_le_bytes());
        assert_eq!((data[76], data[77]), (1, 3));
        let policy = view::<Policy>(&mut data);
        assert_eq!(policy.validate(), Ok(()));
        assert_eq!(policy.recipient_patterns()[1].value(), b"pay.acme");
        assert_eq!(policy.recipient_patterns()[2].value(), &[9; 32]);
    }

    #[test]
    fn counts_above_the_maximum_are_refused_before_reading_items() {
        let five_mints = encode_policy_args((1, 1, 1), (0, 0), 60, &[[1; 32]; 5], &[]);
        let mut data = blank::<Policy>();
        assert_eq!(
            read_policy_args(&mut Reader::new(&five_mints), view::<Policy>(&mut data)),
            Err(PolicyError::TooManyMints)
        );
        let patterns = [(KIND_NAME, &b"a"[..]); 17];
        let seventeen = encode_policy_args((1, 1, 1), (0, 0), 60, &[], &patterns);
        assert_eq!(
            read_policy_args(&mut Reader::new(&seventeen), view::<Policy>(&mut data)),
            Err(PolicyError::TooManyRecipientPatterns)
        );
    }

    #[test]
    fn truncated_or_unknown_pattern_data_is_invalid_instruction_data() {
        let args = encode_policy_args((1, 1, 1), (0, 0), 60, &[[1; 32]], &[(KIND_NAME, b"acme")]);
        let mut data = blank::<Policy>();
        for cut in 0..args.len() {
            assert_eq!(
                read_policy_args(&mut Reader::new(&args[..cut]), view::<Policy>(&mut data)),
                Err(PolicyError::InvalidInstructionData),
                "cut at {cut}"
            );
        }
        let mut unknown = encode_policy_args((1, 1, 1), (0, 0), 60, &[], &[(KIND_NAME, b"acme")]);
        let tag_at = unknown.len() - 4 - 4 - 1;
        unknown[tag_at] = 3;
        assert_eq!(
            read_policy_args(&mut Reader::new(&unknown), view::<Policy>(&mut data)),
            Err(PolicyError::InvalidInstructionData)
        );
    }

    #[test]
    fn a_pattern_longer_than_its_slot_is_an_invalid_pattern() {
        let long = [b'a'; 65];
        let args = encode_policy_args((1, 1, 1), (0, 0), 60, &[], &[(KIND_NAME, &long)]);
        let mut data = blank::<Policy>();
        assert_eq!(
            read_policy_args(&mut Reader::new(&args), view::<Policy>(&mut data)),
            Err(PolicyError::InvalidRecipientPattern)
        );
    }

    #[test]
    fn an_update_replaces_present_fields_and_keeps_absent_ones() {
        // Given a stored policy
        let args = encode_policy_args(
            (100, 250, 50),
            (540, 1020),
            3600,
            &[[4; 32], [5; 32]],
            &[(KIND_NAME, b"acme")],
        );
        let mut data = blank::<Policy>();
        read_policy_args(&mut Reader::new(&args), view::<Policy>(&mut data)).unwrap();
        // When an update sets the daily limit and clears the mints, nothing else
        let mut update = vec![0, 1];
        update.extend_from_slice(&999u64.to_le_bytes());
        update.extend_from_slice(&[0, 0, 0, 0, 1, 0, 0, 0, 0, 0]);
        let mut reader = Reader::new(&update);
        read_policy_update_args(&mut reader, view::<Policy>(&mut data)).unwrap();
        assert_eq!(reader.finish(), Ok(()));
        // Then only those changed
        let policy = view::<Policy>(&mut data);
        let limits = policy.limits();
        assert_eq!(
            (limits.per_transaction, limits.daily, limits.hitl_threshold),
            (100, 999, 50)
        );
        assert_eq!(
            (policy.active_start_minute.get(), policy.active_end_minute.get()),
            (540, 1020)
        );
        assert_eq!(policy.allowed_mints().len(), 0);
        assert!(data[104..232].iter().all(|b| *b == 0));
        assert_eq!(view::<Policy>(&mut data).recipient_patterns()[0].value(), b"acme");
    }

    #[test]
    fn an_empty_update_reads_eight_none_tags() {
        let mut data = blank::<Policy>();
        let mut reader = Reader::new(&[0; 8]);
        assert_eq!(read_policy_update_args(&mut reader, view::<Policy>(&mut data)), Ok(()));
        assert_eq!(reader.finish(), Ok(()));
        assert_eq!(
            read_policy_update_args(&mut Reader::new(&[0; 7]), view::<Policy>(&mut data)),
            Err(PolicyError::InvalidInstructionData)
        );
    }
}

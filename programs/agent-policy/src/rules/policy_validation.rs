//! What a policy must satisfy to be stored (agent_create and policy_update): minutes of the day,
//! an approval window of 1 s..7 days, at most 4 allowed mints (non-zero, distinct), at most 16
//! well-formed recipient patterns. Amount limits are any u64: the SDK refuses nonsense before it is
//! sent, and any u64 combination is safe for the rules in `limits`.

use crate::error::PolicyError;
use crate::runtime::{is_zero_key, keys_eq, Pubkey};

use super::{active_hours, recipients, recipients::RecipientPattern};

pub const MAX_MINTS: usize = 4;
pub const MAX_RECIPIENT_PATTERNS: usize = 16;
pub const MIN_APPROVAL_WINDOW_SECONDS: u32 = 1;
pub const MAX_APPROVAL_WINDOW_SECONDS: u32 = 7 * 86_400;

/// The owner-chosen settings validation looks at (views into the policy account or the args).
pub struct Settings<'a> {
    pub active_start_minute: u16,
    pub active_end_minute: u16,
    pub approval_window_seconds: u32,
    pub allowed_mints: &'a [Pubkey],
    pub recipient_patterns: &'a [RecipientPattern],
}

/// The approval window: 1 second to 7 days inclusive, else `InvalidApprovalWindow`.
pub fn validate_approval_window(seconds: u32) -> Result<(), PolicyError> {
    if !(MIN_APPROVAL_WINDOW_SECONDS..=MAX_APPROVAL_WINDOW_SECONDS).contains(&seconds) {
        return Err(PolicyError::InvalidApprovalWindow);
    }
    Ok(())
}

/// At most 4 mints (`TooManyMints`), each non-zero and listed once (`InvalidMint`).
pub fn validate_mints(mints: &[Pubkey]) -> Result<(), PolicyError> {
    if mints.len() > MAX_MINTS {
        return Err(PolicyError::TooManyMints);
    }
    for (index, mint) in mints.iter().enumerate() {
        if is_zero_key(mint) || mints[..index].iter().any(|earlier| keys_eq(earlier, mint)) {
            return Err(PolicyError::InvalidMint);
        }
    }
    Ok(())
}

/// At most 16 patterns (`TooManyRecipientPatterns`), each well-formed (`InvalidRecipientPattern`).
pub fn validate_patterns(patterns: &[RecipientPattern]) -> Result<(), PolicyError> {
    if patterns.len() > MAX_RECIPIENT_PATTERNS {
        return Err(PolicyError::TooManyRecipientPatterns);
    }
    patterns.iter().try_for_each(recipients::validate)
}

/// Every check, in this order: active hours, approval window, mints, patterns.
pub fn validate(settings: &Settings) -> Result<(), PolicyError> {
    active_hours::validate(settings.active_start_minute, settings.active_end_minute)?;
    validate_approval_window(settings.approval_window_seconds)?;
    validate_mints(settings.allowed_mints)?;
    validate_patterns(settings.recipient_patterns)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::recipients::{KIND_ADDRESS, KIND_NAME, KIND_SUFFIX};

    fn settings<'a>(mints: &'a [Pubkey], patterns: &'a [RecipientPattern]) -> Settings<'a> {
        Settings {
            active_start_minute: 0,
            active_end_minute: 0,
            approval_window_seconds: 86_400,
            allowed_mints: mints,
            recipient_patterns: patterns,
        }
    }

    #[test]
    fn a_typical_policy_is_valid() {
        let patterns = [
            RecipientPattern::new(KIND_NAME, b"acme").unwrap(),
            RecipientPattern::new(KIND_SUFFIX, b"acme").unwrap(),
            RecipientPattern::new(KIND_ADDRESS, &[5; 32]).unwrap(),
        ];
        assert_eq!(validate(&settings(&[[1; 32], [2; 32]], &patterns)), Ok(()));
        assert_eq!(validate(&settings(&[], &[])), Ok(()));
    }

    #[test]
    fn approval_window_is_one_second_to_seven_days() {
        assert_eq!(validate_approval_window(0), Err(PolicyError::InvalidApprovalWindow));
        assert_eq!(validate_approval_window(1), Ok(()));
        assert_eq!(validate_approval_window(604_800), Ok(()));
        assert_eq!(
            validate_approval_window(604_801),
            Err(PolicyError::InvalidApprovalWindow)
        );
        assert_eq!(
            validate_approval_window(u32::MAX),
            Err(PolicyError::InvalidApprovalWindow)
        );
    }

    #[test]
    fn at_most_four_distinct_non_zero_mints() {
        assert_eq!(validate_mints(&[[1; 32], [2; 32], [3; 32], [4; 32]]), Ok(()));
        assert_eq!(
            validate_mints(&[[1; 32], [2; 32], [3; 32], [4; 32], [5; 32]]),
            Err(PolicyError::TooManyMints)
        );
        assert_eq!(validate_mints(&[[1; 32], [0; 32]]), Err(PolicyError::InvalidMint));
        assert_eq!(
            validate_mints(&[[1; 32], [2; 32], [1; 32]]),
            Err(PolicyError::InvalidMint)
        );
    }

    #[test]
    fn at_most_sixteen_well_formed_patterns() {
        let one = RecipientPattern::new(KIND_NAME, b"acme").unwrap();
        assert_eq!(validate_patterns(&[one; 16]), Ok(()));
        assert_eq!(
            validate_patterns(&[one; 17]),
            Err(PolicyError::TooManyRecipientPatterns)
        );
        let bad = RecipientPattern::new(KIND_SUFFIX, b"*.acme").unwrap();
        assert_eq!(
            validate_patterns(&[one, bad]),
            Err(PolicyError::InvalidRecipientPattern)
        );
    }

    #[test]
    fn checks_run_in_a_fixed_order() {
        // Given settings wrong in every way, the first check in the documented order reports
        let bad_pattern = [RecipientPattern::new(9, b"x").unwrap()];
        let mut all_wrong = settings(&[[0; 32]], &bad_pattern);
        all_wrong.active_start_minute = 1440;
        all_wrong.approval_window_seconds = 0;
        assert_eq!(validate(&all_wrong), Err(PolicyError::InvalidActiveHours));
        all_wrong.active_start_minute = 0;
        assert_eq!(validate(&all_wrong), Err(PolicyError::InvalidApprovalWindow));
        all_wrong.approval_window_seconds = 60;
        assert_eq!(validate(&all_wrong), Err(PolicyError::InvalidMint));
        all_wrong.allowed_mints = &[];
        assert_eq!(validate(&all_wrong), Err(PolicyError::InvalidRecipientPattern));
    }
}

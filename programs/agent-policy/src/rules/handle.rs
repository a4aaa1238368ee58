//! Handle grammar. The SDK normalises (lower-case, no leading `@`); the program accepts only
//! normalised bytes, so one name has exactly one spelling and one PDA.
//!
//! - account handle: 1-32 bytes of labels `[a-z0-9_-]+` joined by `.` (`acme`, `pay.acme`);
//! - agent name: 1-32 bytes of `[a-z0-9_-]`;
//! - agent handle: `<account handle>/<agent name>`, 64 bytes at most.

use crate::error::PolicyError;

pub const MAX_ACCOUNT_HANDLE_LEN: usize = 32;
pub const MAX_AGENT_NAME_LEN: usize = 32;
pub const MAX_AGENT_HANDLE_LEN: usize = 64;

#[inline]
fn is_label_byte(byte: u8) -> bool {
    byte.is_ascii_lowercase() || byte.is_ascii_digit() || byte == b'_' || byte == b'-'
}

/// `acme`, `pay.acme`: non-empty labels joined by single dots, 1-32 bytes.
pub fn is_account_handle(handle: &[u8]) -> bool {
    if handle.is_empty() || handle.len() > MAX_ACCOUNT_HANDLE_LEN {
        return false;
    }
    let mut label_len = 0usize;
    for &byte in handle {
        if byte == b'.' {
            if label_len == 0 {
                return false; // leading dot or two dots in a row
            }
            label_len = 0;
        } else if is_label_byte(byte) {
            label_len += 1;
        } else {
            return false;
        }
    }
    label_len > 0 // no trailing dot
}

/// The `<name>` of an agent handle: 1-32 bytes of `[a-z0-9_-]` (no dots).
pub fn is_agent_name(name: &[u8]) -> bool {
    !name.is_empty() && name.len() <= MAX_AGENT_NAME_LEN && name.iter().all(|&b| is_label_byte(b))
}

/// `acme/bot`: an account handle, one `/`, an agent name; 64 bytes at most.
pub fn is_agent_handle(handle: &[u8]) -> bool {
    if handle.len() > MAX_AGENT_HANDLE_LEN {
        return false;
    }
    match handle.iter().position(|&b| b == b'/') {
        Some(slash) => is_account_handle(&handle[..slash]) && is_agent_name(&handle[slash + 1..]),
        None => false,
    }
}

/// A name a recipient pattern may hold: any handle, account or agent.
pub fn is_any_handle(handle: &[u8]) -> bool {
    is_account_handle(handle) || is_agent_handle(handle)
}

/// Writes `<owner>/<name>` into `out` and returns its length; `InvalidHandle` unless both parts
/// are well-formed and the whole fits in 64 bytes. Always inlined: two slices, the output and the
/// returned `Result` would take six argument registers (SBF has five).
#[inline(always)]
pub fn join_agent_handle(
    owner: &[u8],
    name: &[u8],
    out: &mut [u8; MAX_AGENT_HANDLE_LEN],
) -> Result<usize, PolicyError> {
    if !is_account_handle(owner) || !is_agent_name(name) {
        return Err(PolicyError::InvalidHandle);
    }
    let len = owner.len() + 1 + name.len();
    if len > MAX_AGENT_HANDLE_LEN {
        return Err(PolicyError::InvalidHandle);
    }
    out[..owner.len()].copy_from_slice(owner);
    out[owner.len()] = b'/';
    out[owner.len() + 1..len].copy_from_slice(name);
    Ok(len)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn account_handles_are_dot_joined_lower_case_labels() {
        for good in ["acme", "pay.acme", "x.pay.acme", "a", "a_b-c.9", "0", &"a".repeat(32)] {
            assert!(is_account_handle(good.as_bytes()), "{good}");
        }
        for bad in [
            "",
            "Acme",
            "ACME",
            "pay.Acme",
            "@acme",
            ".acme",
            "acme.",
            "pay..acme",
            "ac me",
            "acme/bot",
            "é",
            "acme\0",
            &"a".repeat(33),
        ] {
            assert!(!is_account_handle(bad.as_bytes()), "{bad:?}");
        }
    }

    #[test]
    fn agent_names_have_no_dots_and_at_most_32_bytes() {
        assert!(is_agent_name(b"bot"));
        assert!(is_agent_name(b"bot_1-x"));
        assert!(is_agent_name("b".repeat(32).as_bytes()));
        assert!(!is_agent_name(b""));
        assert!(!is_agent_name(b"my.bot"));
        assert!(!is_agent_name(b"Bot"));
        assert!(!is_agent_name(b"a/b"));
        assert!(!is_agent_name("b".repeat(33).as_bytes()));
    }

    #[test]
    fn agent_handles_are_owner_slash_name_within_64_bytes() {
        assert!(is_agent_handle(b"acme/bot"));
        assert!(is_agent_handle(b"pay.acme/bot"));
        // 31 + 1 + 32 = 64 bytes: the longest allowed
        let longest = format!("{}/{}", "a".repeat(31), "b".repeat(32));
        assert!(is_agent_handle(longest.as_bytes()));
        // 32 + 1 + 32 = 65 bytes: each part is valid, the whole is too long
        let too_long = format!("{}/{}", "a".repeat(32), "b".repeat(32));
        assert!(!is_agent_handle(too_long.as_bytes()));
        for bad in [
            "acme",
            "/bot",
            "acme/",
            "acme/bot/x",
            "Acme/bot",
            "acme/Bot",
            "acme/b.t",
            ".acme/bot",
        ] {
            assert!(!is_agent_handle(bad.as_bytes()), "{bad}");
        }
    }

    #[test]
    fn joins_an_agent_handle_or_refuses_it() {
        let mut out = [0u8; 64];
        assert_eq!(join_agent_handle(b"acme", b"bot", &mut out), Ok(8));
        assert_eq!(&out[..8], b"acme/bot");
        assert_eq!(
            join_agent_handle(b"Acme", b"bot", &mut out),
            Err(PolicyError::InvalidHandle)
        );
        assert_eq!(
            join_agent_handle(b"acme", b"", &mut out),
            Err(PolicyError::InvalidHandle)
        );
        let owner = "a".repeat(32);
        let name = "b".repeat(32);
        assert_eq!(
            join_agent_handle(owner.as_bytes(), name.as_bytes(), &mut out),
            Err(PolicyError::InvalidHandle)
        );
        assert_eq!(
            join_agent_handle(&owner.as_bytes()[..31], name.as_bytes(), &mut out),
            Ok(64)
        );
    }
}

//! Recipient patterns. An empty list allows any recipient; otherwise one pattern must match:
//!
//! - `Name` (kind 0): the recipient handle equals it (`acme`, `acme/bot`);
//! - `Suffix` (kind 1, `*.acme` stored as `acme`): the recipient handle ends in `.acme` — `pay.acme`
//!   and `x.pay.acme`, never `acme` itself nor `xacme`;
//! - `Address` (kind 2): the destination token account or its owner wallet is that address.
//!
//! The recipient handle is the one proved by a `Handle` account whose wallet owns the destination
//! (checked by the caller); without one, only address patterns can match.

use crate::error::PolicyError;
use crate::runtime::{is_zero_key, keys_eq, Pubkey};

use super::handle::{is_account_handle, is_any_handle};

pub const KIND_NAME: u8 = 0;
pub const KIND_SUFFIX: u8 = 1;
pub const KIND_ADDRESS: u8 = 2;
pub const PATTERN_VALUE_LEN: usize = 64;

/// One pattern slot as the policy account stores it (66 bytes, alignment 1, any bytes valid):
/// kind, length of the value, value zero-padded to 64 bytes (an address uses 32).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RecipientPattern {
    pub kind: u8,
    pub len: u8,
    pub value: [u8; PATTERN_VALUE_LEN],
}

impl RecipientPattern {
    pub const EMPTY: Self = Self {
        kind: 0,
        len: 0,
        value: [0; PATTERN_VALUE_LEN],
    };

    /// A pattern from its parts; `InvalidRecipientPattern` if the value cannot fit its slot. The
    /// grammar is checked by [`validate`].
    pub fn new(kind: u8, value: &[u8]) -> Result<Self, PolicyError> {
        if value.len() > PATTERN_VALUE_LEN {
            return Err(PolicyError::InvalidRecipientPattern);
        }
        let mut pattern = Self {
            kind,
            len: value.len() as u8,
            ..Self::EMPTY
        };
        pattern.value[..value.len()].copy_from_slice(value);
        Ok(pattern)
    }

    /// The stored value (clamped to the slot, whatever `len` says).
    #[inline]
    pub fn value(&self) -> &[u8] {
        &self.value[..(self.len as usize).min(PATTERN_VALUE_LEN)]
    }

    #[inline]
    fn address(&self) -> &Pubkey {
        // value is 64 bytes; the first 32 are the address.
        unsafe { &*(self.value.as_ptr() as *const Pubkey) }
    }
}

/// Who a transfer goes to, as far as the patterns can see.
pub struct Recipient<'a> {
    /// The handle proved by a `Handle` account owning the destination, if one was passed.
    pub handle: Option<&'a [u8]>,
    /// The destination token account.
    pub destination: &'a Pubkey,
    /// The destination token account's owner wallet.
    pub destination_owner: &'a Pubkey,
}

/// `a[..len] == b[..len]`, by 8-byte words then a 4/2/1-byte tail. Slice `==` becomes a call to
/// the builtin `memcmp` (a byte loop, ~10 instructions a byte); handles and patterns are at most
/// 64 bytes. Out of line, like the call it replaces: inlined, it costs the pattern loop registers.
/// (With no variable-length caller left, LTO specialises `memcmp` to its 32-byte callers, which
/// then escape llc's inline expansion: every key compare in the program uses `keys_eq` instead.)
///
/// # Safety
/// `a` and `b` must be valid for reads of `len` bytes.
#[inline(never)]
unsafe fn same_bytes(mut a: *const u8, mut b: *const u8, mut len: usize) -> bool {
    use core::ptr::read_unaligned as read;
    while len >= 8 {
        if read(a as *const u64) != read(b as *const u64) {
            return false;
        }
        (a, b, len) = (a.add(8), b.add(8), len - 8);
    }
    if len >= 4 {
        if read(a as *const u32) != read(b as *const u32) {
            return false;
        }
        (a, b, len) = (a.add(4), b.add(4), len - 4);
    }
    if len >= 2 {
        if read(a as *const u16) != read(b as *const u16) {
            return false;
        }
        (a, b, len) = (a.add(2), b.add(2), len - 2);
    }
    len == 0 || *a == *b
}

/// `handle == name`.
#[inline]
fn name_matches(handle: &[u8], name: &[u8]) -> bool {
    // Equal lengths: both slices are valid for `name.len()` bytes.
    handle.len() == name.len() && unsafe { same_bytes(handle.as_ptr(), name.as_ptr(), name.len()) }
}

/// `*.suffix` semantics: `handle` is `<at least one byte>.<suffix>`.
#[inline]
pub fn suffix_matches(handle: &[u8], suffix: &[u8]) -> bool {
    handle.len() > suffix.len() + 1 && {
        let dot = handle.len() - suffix.len() - 1;
        // `handle[dot + 1..]` is exactly `suffix.len()` bytes.
        handle[dot] == b'.' && unsafe { same_bytes(handle.as_ptr().add(dot + 1), suffix.as_ptr(), suffix.len()) }
    }
}

/// Whether one pattern matches the recipient (see the module doc); an unknown kind never matches.
pub fn matches(pattern: &RecipientPattern, recipient: &Recipient) -> bool {
    match pattern.kind {
        KIND_NAME => recipient
            .handle
            .is_some_and(|handle| name_matches(handle, pattern.value())),
        KIND_SUFFIX => recipient
            .handle
            .is_some_and(|handle| suffix_matches(handle, pattern.value())),
        KIND_ADDRESS => {
            pattern.len as usize == 32
                && (keys_eq(pattern.address(), recipient.destination)
                    || keys_eq(pattern.address(), recipient.destination_owner))
        }
        _ => false,
    }
}

/// The recipient rule: no patterns allow anyone; otherwise at least one must match.
pub fn check(patterns: &[RecipientPattern], recipient: &Recipient) -> Result<(), PolicyError> {
    if patterns.is_empty() || patterns.iter().any(|pattern| matches(pattern, recipient)) {
        Ok(())
    } else {
        Err(PolicyError::RecipientNotAllowed)
    }
}

/// A pattern is well-formed: a name is a valid handle (account or agent), a suffix a valid
/// account handle, an address 32 non-zero bytes; padding past the value is zero.
pub fn validate(pattern: &RecipientPattern) -> Result<(), PolicyError> {
    let value = pattern.value();
    let well_formed = pattern.len as usize <= PATTERN_VALUE_LEN
        && pattern.value[value.len()..].iter().all(|&b| b == 0)
        && match pattern.kind {
            KIND_NAME => is_any_handle(value),
            KIND_SUFFIX => is_account_handle(value),
            KIND_ADDRESS => value.len() == 32 && !is_zero_key(pattern.address()),
            _ => false,
        };
    if well_formed {
        Ok(())
    } else {
        Err(PolicyError::InvalidRecipientPattern)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const DESTINATION: Pubkey = [1; 32];
    const OWNER: Pubkey = [2; 32];

    fn to(handle: Option<&'static str>) -> Recipient<'static> {
        Recipient {
            handle: handle.map(str::as_bytes),
            destination: &DESTINATION,
            destination_owner: &OWNER,
        }
    }

    fn name(value: &str) -> RecipientPattern {
        RecipientPattern::new(KIND_NAME, value.as_bytes()).unwrap()
    }

    fn suffix(value: &str) -> RecipientPattern {
        RecipientPattern::new(KIND_SUFFIX, value.as_bytes()).unwrap()
    }

    fn address(key: &Pubkey) -> RecipientPattern {
        RecipientPattern::new(KIND_ADDRESS, key).unwrap()
    }

    #[test]
    fn the_slot_is_66_bytes_with_alignment_1() {
        assert_eq!(core::mem::size_of::<RecipientPattern>(), 66);
        assert_eq!(core::mem::align_of::<RecipientPattern>(), 1);
    }

    #[test]
    fn a_suffix_matches_subdomains_only() {
        // `*.acme`
        let pattern = suffix("acme");
        assert!(matches(&pattern, &to(Some("pay.acme"))));
        assert!(matches(&pattern, &to(Some("x.pay.acme"))));
        assert!(!matches(&pattern, &to(Some("acme"))));
        assert!(!matches(&pattern, &to(Some("xacme"))));
        assert!(!matches(&pattern, &to(Some(".acme")))); // not a valid handle, and still no match
        assert!(!matches(&pattern, &to(Some("acme.pay"))));
        assert!(!matches(&pattern, &to(Some("pay.acme2"))));
        assert!(!matches(&pattern, &to(None)));
        // `*.pay.acme`
        let deeper = suffix("pay.acme");
        assert!(matches(&deeper, &to(Some("x.pay.acme"))));
        assert!(!matches(&deeper, &to(Some("pay.acme"))));
        assert!(!matches(&deeper, &to(Some("xpay.acme"))));
    }

    #[test]
    fn same_bytes_is_slice_equality_at_every_length() {
        let a: Vec<u8> = (0..64u8).map(|i| b'a' + i % 26).collect();
        for len in 0..=64 {
            let same = a[..len].to_vec();
            assert!(unsafe { same_bytes(a.as_ptr(), same.as_ptr(), len) }, "{len}");
            for at in 0..len {
                let mut b = a[..len].to_vec();
                b[at] ^= 0x20;
                assert!(!unsafe { same_bytes(a.as_ptr(), b.as_ptr(), len) }, "{len} {at}");
            }
        }
    }

    #[test]
    fn a_name_matches_only_the_same_handle() {
        let pattern = name("acme");
        assert!(matches(&pattern, &to(Some("acme"))));
        assert!(!matches(&pattern, &to(Some("pay.acme"))));
        assert!(!matches(&pattern, &to(Some("xacme"))));
        assert!(!matches(&pattern, &to(Some("acm"))));
        assert!(!matches(&pattern, &to(Some("acme/bot"))));
        assert!(!matches(&pattern, &to(None)));
        assert!(matches(&name("acme/bot"), &to(Some("acme/bot"))));
    }

    #[test]
    fn an_address_matches_the_token_account_or_its_owner() {
        assert!(matches(&address(&DESTINATION), &to(None)));
        assert!(matches(&address(&OWNER), &to(None)));
        assert!(matches(&address(&OWNER), &to(Some("acme"))));
        assert!(!matches(&address(&[3; 32]), &to(Some("acme"))));
    }

    #[test]
    fn an_empty_list_allows_anyone_and_a_list_needs_one_match() {
        assert_eq!(check(&[], &to(None)), Ok(()));
        let list = [name("bob"), suffix("acme"), address(&[9; 32])];
        assert_eq!(check(&list, &to(Some("pay.acme"))), Ok(()));
        assert_eq!(check(&list, &to(Some("bob"))), Ok(()));
        assert_eq!(check(&list, &to(Some("acme"))), Err(PolicyError::RecipientNotAllowed));
        assert_eq!(check(&list, &to(None)), Err(PolicyError::RecipientNotAllowed));
        let with_owner = [name("bob"), address(&OWNER)];
        assert_eq!(check(&with_owner, &to(None)), Ok(()));
    }

    #[test]
    fn validation_uses_the_handle_grammar() {
        assert_eq!(validate(&name("acme")), Ok(()));
        assert_eq!(validate(&name("pay.acme")), Ok(()));
        assert_eq!(validate(&name("acme/bot")), Ok(()));
        assert_eq!(validate(&suffix("acme")), Ok(()));
        assert_eq!(validate(&suffix("pay.acme")), Ok(()));
        assert_eq!(validate(&address(&[7; 32])), Ok(()));
        for bad in [
            name("Acme"),
            name("@acme"),
            name(""),
            name("*.acme"),
            suffix("ACME"),
            suffix("*.acme"),
            suffix(".acme"),
            suffix("acme/bot"),
            suffix(""),
            address(&[0; 32]),
            RecipientPattern::new(KIND_ADDRESS, &[7; 31]).unwrap(),
            RecipientPattern::new(3, b"acme").unwrap(),
        ] {
            assert_eq!(validate(&bad), Err(PolicyError::InvalidRecipientPattern), "{bad:?}");
        }
        // A stored slot with a length past its 64 bytes or junk after the value is malformed
        let mut long = name("acme");
        long.len = 65;
        assert_eq!(validate(&long), Err(PolicyError::InvalidRecipientPattern));
        let mut junk = name("acme");
        junk.value[10] = b'x';
        assert_eq!(validate(&junk), Err(PolicyError::InvalidRecipientPattern));
        assert_eq!(
            RecipientPattern::new(KIND_NAME, &[b'a'; 65]),
            Err(PolicyError::InvalidRecipientPattern)
        );
    }
}

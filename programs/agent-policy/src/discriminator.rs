//! Anchor discriminators, computed at compile time from their names.
//!
//! instruction: `sha256("global:<snake_case_name>")[..8]`, account: `sha256("account:<TypeName>")[..8]`,
//! event: `sha256("event:<EventName>")[..8]`. The IDL test checks these against idl/agent_policy.json.

use crate::sha256_const::sha256;

/// First 8 bytes of `sha256(preimage)`.
pub const fn discriminator(preimage: &[u8]) -> [u8; 8] {
    let hash = sha256(preimage);
    [hash[0], hash[1], hash[2], hash[3], hash[4], hash[5], hash[6], hash[7]]
}

pub mod instruction {
    use super::discriminator;
    pub const CONFIG_INITIALIZE: [u8; 8] = discriminator(b"global:config_initialize");
}

pub mod account {
    use super::discriminator;
    pub const CONFIG: [u8; 8] = discriminator(b"account:Config");
}

pub mod event {
    use super::discriminator;
    pub const CONFIG_INITIALIZED: [u8; 8] = discriminator(b"event:ConfigInitialized");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn instruction_discriminator_matches_anchor_for_a_known_name() {
        // Anchor's `initialize` instruction: sha256("global:initialize")[..8], a widely published value.
        assert_eq!(discriminator(b"global:initialize"), [175, 175, 109, 31, 13, 152, 155, 237]);
    }

    #[test]
    fn namespaces_give_distinct_discriminators() {
        assert_ne!(instruction::CONFIG_INITIALIZE, account::CONFIG);
        assert_ne!(account::CONFIG, event::CONFIG_INITIALIZED);
    }
}

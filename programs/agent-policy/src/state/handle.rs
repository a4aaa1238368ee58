//! `Handle` — PDA `["handle", sha256(handle)]`: a registered name and the wallet it resolves to.
//! Account handles (personal, business) are registered by the config's registrar; agent handles
//! (`owner/name`, wallet = the agent PDA) are created by `agent_create`. A recipient is proved by
//! passing its `Handle`, whose wallet must own the destination token account.
//!
//! ```text
//! offset size field
//!      0    8 discriminator  sha256("account:Handle")[..8]
//!      8   32 wallet         the address the handle resolves to
//!     40    1 kind           0 personal, 1 business, 2 agent
//!     41    1 bump           canonical bump of the PDA
//!     42    1 handle_len     1..=64
//!     43   64 handle         normalised handle bytes, zero padded
//!    107    5 reserved       zero
//! ```

use super::layout::account;
use super::prefix;
use crate::discriminator::account::HANDLE;
use crate::runtime::Pubkey;

pub const HANDLE_SEED: &[u8] = b"handle";
pub const LEN: usize = 112;

pub const KIND_PERSONAL: u8 = 0;
pub const KIND_BUSINESS: u8 = 1;
pub const KIND_AGENT: u8 = 2;

account! {
    pub struct Handle (LEN, HANDLE) {
        8 wallet: Pubkey,
        40 kind: u8,
        41 bump: u8,
        42 handle_len: u8,
        43 handle: [u8; 64],
        107 reserved: [u8; 5],
    }
}

/// What `handle_register` and `agent_create` store besides the discriminator.
pub struct NewHandle<'a> {
    pub wallet: &'a Pubkey,
    pub kind: u8,
    pub bump: u8,
    pub handle: &'a [u8],
}

impl Handle {
    /// The handle's bytes (`acme`, `pay.acme`, `acme/bot`).
    #[inline]
    pub fn handle(&self) -> &[u8] {
        prefix(&self.handle, self.handle_len)
    }

    /// Fills a just-created handle account (`state::init` wrote the discriminator). The handle is
    /// at most 64 bytes (validated by the grammar before).
    pub fn write_new(&mut self, new: &NewHandle) {
        self.wallet = *new.wallet;
        self.kind = new.kind;
        self.bump = new.bump;
        self.handle_len = new.handle.len() as u8;
        self.handle[..new.handle.len()].copy_from_slice(new.handle);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::test_support::{blank, view};

    #[test]
    fn writes_every_field_at_its_documented_offset() {
        let mut data = blank::<Handle>();
        let handle = view::<Handle>(&mut data);
        handle.write_new(&NewHandle {
            wallet: &[3; 32],
            kind: KIND_BUSINESS,
            bump: 251,
            handle: b"pay.acme",
        });
        assert_eq!(handle.handle(), b"pay.acme");
        assert_eq!(&data[8..40], &[3; 32]);
        assert_eq!(data[40], KIND_BUSINESS);
        assert_eq!(data[41], 251);
        assert_eq!(data[42], 8);
        assert_eq!(&data[43..51], b"pay.acme");
        assert!(data[51..].iter().all(|b| *b == 0));
    }
}

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

use core::mem::offset_of;

use super::{prefix, AccountType};
use crate::discriminator::account::HANDLE;
use crate::runtime::Pubkey;

pub const HANDLE_SEED: &[u8] = b"handle";
pub const LEN: usize = 112;

pub const KIND_PERSONAL: u8 = 0;
pub const KIND_BUSINESS: u8 = 1;
pub const KIND_AGENT: u8 = 2;

#[repr(C)]
pub struct Handle {
    pub discriminator: [u8; 8],
    pub wallet: Pubkey,
    pub kind: u8,
    pub bump: u8,
    pub handle_len: u8,
    pub handle: [u8; 64],
    pub reserved: [u8; 5],
}

unsafe impl AccountType for Handle {
    const DISCRIMINATOR: [u8; 8] = HANDLE;
}

const _: () = {
    assert!(core::mem::size_of::<Handle>() == LEN);
    assert!(core::mem::align_of::<Handle>() == 1);
    assert!(offset_of!(Handle, wallet) == 8);
    assert!(offset_of!(Handle, kind) == 40);
    assert!(offset_of!(Handle, bump) == 41);
    assert!(offset_of!(Handle, handle_len) == 42);
    assert!(offset_of!(Handle, handle) == 43);
    assert!(offset_of!(Handle, reserved) == 107);
};

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

    #[test]
    fn writes_every_field_at_its_documented_offset() {
        let mut data = [0u8; LEN];
        data[..8].copy_from_slice(&HANDLE);
        let handle = unsafe { &mut *(data.as_mut_ptr() as *mut Handle) };
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

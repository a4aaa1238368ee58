//! `Config` — PDA `["config"]`, one per program deployment.
//!
//! ```text
//! offset size field
//!      0    8 discriminator  sha256("account:Config")[..8]
//!      8   32 admin          may change the config (the program's upgrade authority at init)
//!     40   32 registrar      the service key allowed to register handles
//!     72    1 bump           canonical bump of the PDA, stored so later checks re-derive cheaply
//!     73    1 layout_version 1
//!     74  134 reserved       zero; room for fields added later without a realloc
//! ```

use crate::discriminator::account::CONFIG;
use crate::runtime::Pubkey;

pub const CONFIG_SEED: &[u8] = b"config";
pub const LEN: usize = 208;
pub const LAYOUT_VERSION: u8 = 1;

mod offset {
    pub const ADMIN: usize = 8;
    pub const REGISTRAR: usize = 40;
    pub const BUMP: usize = 72;
    pub const LAYOUT_VERSION: usize = 73;
}

/// Writes a fresh config into `data` (exactly `LEN` zeroed bytes, just allocated).
pub fn write_new(data: &mut [u8], admin: &Pubkey, registrar: &Pubkey, bump: u8) {
    data[..8].copy_from_slice(&CONFIG);
    data[offset::ADMIN..offset::ADMIN + 32].copy_from_slice(admin);
    data[offset::REGISTRAR..offset::REGISTRAR + 32].copy_from_slice(registrar);
    data[offset::BUMP] = bump;
    data[offset::LAYOUT_VERSION] = LAYOUT_VERSION;
}

/// A read-only view of a config account's bytes (already checked with `state::check_account`).
pub struct ConfigView<'a>(pub &'a [u8]);

impl ConfigView<'_> {
    pub fn admin(&self) -> &[u8] {
        &self.0[offset::ADMIN..offset::ADMIN + 32]
    }
    pub fn registrar(&self) -> &[u8] {
        &self.0[offset::REGISTRAR..offset::REGISTRAR + 32]
    }
    pub fn bump(&self) -> u8 {
        self.0[offset::BUMP]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_every_field_at_its_documented_offset() {
        let mut data = [0u8; LEN];
        write_new(&mut data, &[1; 32], &[2; 32], 254);
        let view = ConfigView(&data);
        assert_eq!(&data[..8], &CONFIG);
        assert_eq!(view.admin(), &[1; 32]);
        assert_eq!(view.registrar(), &[2; 32]);
        assert_eq!(view.bump(), 254);
        assert_eq!(data[73], LAYOUT_VERSION);
        assert!(data[74..].iter().all(|b| *b == 0));
    }
}

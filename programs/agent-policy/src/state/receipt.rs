//! `Receipt` — PDA `["receipt", transfer_id]`: created by `transfer_record`, so a retried
//! submission of the same transfer id fails on-chain (the account exists) and one id can never
//! be recorded, or move funds in the same transaction, twice.
//!
//! ```text
//! offset size field
//!      0    8 discriminator  sha256("account:Receipt")[..8]
//!      8   16 transfer_id
//!     24   32 sender         the signer that recorded the transfer
//!     56    8 recorded_at    i64 LE unix seconds
//!     64    1 bump           canonical bump of the PDA
//!     65    7 reserved       zero
//! ```

use core::mem::offset_of;

use super::AccountType;
use crate::discriminator::account::RECEIPT;
use crate::runtime::Pubkey;

pub const RECEIPT_SEED: &[u8] = b"receipt";
pub const LEN: usize = 72;

#[repr(C)]
pub struct Receipt {
    pub discriminator: [u8; 8],
    pub transfer_id: [u8; 16],
    pub sender: Pubkey,
    pub recorded_at: [u8; 8],
    pub bump: u8,
    pub reserved: [u8; 7],
}

unsafe impl AccountType for Receipt {
    const DISCRIMINATOR: [u8; 8] = RECEIPT;
}

const _: () = {
    assert!(core::mem::size_of::<Receipt>() == LEN);
    assert!(core::mem::align_of::<Receipt>() == 1);
    assert!(offset_of!(Receipt, transfer_id) == 8);
    assert!(offset_of!(Receipt, sender) == 24);
    assert!(offset_of!(Receipt, recorded_at) == 56);
    assert!(offset_of!(Receipt, bump) == 64);
    assert!(offset_of!(Receipt, reserved) == 65);
};

impl Receipt {
    /// Fills a just-created receipt (`state::init` wrote the discriminator).
    pub fn write_new(&mut self, transfer_id: &[u8; 16], sender: &Pubkey, recorded_at: i64, bump: u8) {
        self.transfer_id = *transfer_id;
        self.sender = *sender;
        self.recorded_at = recorded_at.to_le_bytes();
        self.bump = bump;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_every_field_at_its_documented_offset() {
        let mut data = [0u8; LEN];
        data[..8].copy_from_slice(&RECEIPT);
        let receipt = unsafe { &mut *(data.as_mut_ptr() as *mut Receipt) };
        receipt.write_new(&[1; 16], &[2; 32], 1_700_000_000, 254);
        assert_eq!(&data[8..24], &[1; 16]);
        assert_eq!(&data[24..56], &[2; 32]);
        assert_eq!(&data[56..64], &1_700_000_000i64.to_le_bytes());
        assert_eq!(data[64], 254);
        assert_eq!(&data[65..], &[0; 7]);
    }
}

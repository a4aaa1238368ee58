//! `Receipt` — PDA `["receipt", sender, transfer_id]`: created by `transfer_record`, so a retried
//! submission of the same transfer id fails on-chain (the account exists) and one id can never
//! be recorded, or move funds in the same transaction, twice. Closed by `receipt_close` once it is
//! old enough, its rent back to `rent_payer`.
//!
//! ```text
//! offset size field
//!      0    8 discriminator  sha256("account:Receipt")[..8]
//!      8   16 transfer_id
//!     24   32 sender         the signer that recorded the transfer
//!     56    8 recorded_at    i64 LE unix seconds
//!     64    1 bump           canonical bump of the PDA
//!     65    7 reserved       zero
//!     72   32 rent_payer     who paid the rent: the only account `receipt_close` returns it to
//!    104    8 recorded_slot  u64 LE, the Clock slot of the recording: `receipt_close` measures age from it
//! ```
//!
//! The first 72 bytes are the original layout, unchanged, so a reader of the header reads both.
//! A 72-byte receipt (recorded before `rent_payer` existed) fails the length check and cannot be
//! closed: nothing on it says who paid. None exists outside test clusters.

use super::layout::{account, I64, U64};
use crate::discriminator::account::RECEIPT;
use crate::runtime::Pubkey;

pub const RECEIPT_SEED: &[u8] = b"receipt";
pub const LEN: usize = 112;

account! {
    pub struct Receipt (LEN, RECEIPT) {
        8 transfer_id: [u8; 16],
        24 sender: Pubkey,
        56 recorded_at: I64,
        64 bump: u8,
        65 reserved: [u8; 7],
        72 rent_payer: Pubkey,
        104 recorded_slot: U64,
    }
}

/// What `transfer_record` writes into a just-created receipt.
pub struct NewReceipt<'a> {
    pub transfer_id: &'a [u8; 16],
    pub sender: &'a Pubkey,
    pub rent_payer: &'a Pubkey,
    pub recorded_at: i64,
    pub recorded_slot: u64,
    pub bump: u8,
}

impl Receipt {
    /// Fills a just-created receipt (`state::init` wrote the discriminator).
    pub fn write_new(&mut self, new: &NewReceipt) {
        self.transfer_id = *new.transfer_id;
        self.sender = *new.sender;
        self.recorded_at.set(new.recorded_at);
        self.bump = new.bump;
        self.rent_payer = *new.rent_payer;
        self.recorded_slot.set(new.recorded_slot);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::test_support::{blank, view};

    #[test]
    fn writes_every_field_at_its_documented_offset() {
        let mut data = blank::<Receipt>();
        let receipt = view::<Receipt>(&mut data);
        receipt.write_new(&NewReceipt {
            transfer_id: &[1; 16],
            sender: &[2; 32],
            rent_payer: &[3; 32],
            recorded_at: 1_700_000_000,
            recorded_slot: 987_654_321,
            bump: 254,
        });
        assert_eq!(receipt.recorded_slot.get(), 987_654_321);
        assert_eq!(&data[8..24], &[1; 16]);
        assert_eq!(&data[24..56], &[2; 32]);
        assert_eq!(&data[56..64], &1_700_000_000i64.to_le_bytes());
        assert_eq!(data[64], 254);
        assert_eq!(&data[65..72], &[0; 7]);
        assert_eq!(&data[72..104], &[3; 32]);
        assert_eq!(&data[104..112], &987_654_321u64.to_le_bytes());
    }
}

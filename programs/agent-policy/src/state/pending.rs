//! `PendingTransaction` — PDA `["pending", agent, nonce as u64 LE]`: a spend above the HITL
//! threshold, held until the owner approves or rejects it before `expires_at`, or anyone closes it
//! after. The accounts of the transfer are pinned here: approval moves exactly these.
//!
//! ```text
//! offset size field
//!      0    8 discriminator         sha256("account:PendingTransaction")[..8]
//!      8   32 agent                 the Agent that requested the spend
//!     40    8 nonce                 u64 LE: the agent's next_hold_nonce when held (the PDA seed)
//!     48   32 source                agent-owned Token-2022 account
//!     80   32 destination           Token-2022 account
//!    112   32 mint
//!    144    8 amount                u64 LE base units (public path; 0 for confidential holds)
//!    152    8 requested_at          i64 LE unix seconds
//!    160    8 expires_at            i64 LE: requested_at + approval_window_seconds
//!    168   32 rent_payer            gets the rent back when the hold is closed
//!    200    1 recipient_handle_len  0 when no recipient handle was passed
//!    201    1 bump                  canonical bump of the PDA
//!    202    1 confidential          0 public, 1 confidential (issue 5)
//!    203    5 reserved
//!    208   64 recipient_handle      the handle proved at request time, zero padded
//!    272   16 transfer_id
//!    288  128 reserved              confidential transfer contexts (issue 5)
//! ```

use core::mem::offset_of;

use super::{prefix, AccountType};
use crate::discriminator::account::PENDING_TRANSACTION;
use crate::runtime::Pubkey;

pub const PENDING_SEED: &[u8] = b"pending";
pub const LEN: usize = 416;

#[repr(C)]
pub struct PendingTransaction {
    pub discriminator: [u8; 8],
    pub agent: Pubkey,
    pub nonce: [u8; 8],
    pub source: Pubkey,
    pub destination: Pubkey,
    pub mint: Pubkey,
    pub amount: [u8; 8],
    pub requested_at: [u8; 8],
    pub expires_at: [u8; 8],
    pub rent_payer: Pubkey,
    pub recipient_handle_len: u8,
    pub bump: u8,
    pub confidential: u8,
    pub reserved0: [u8; 5],
    pub recipient_handle: [u8; 64],
    pub transfer_id: [u8; 16],
    pub reserved: [u8; 128],
}

unsafe impl AccountType for PendingTransaction {
    const DISCRIMINATOR: [u8; 8] = PENDING_TRANSACTION;
}

const _: () = {
    assert!(core::mem::size_of::<PendingTransaction>() == LEN);
    assert!(core::mem::align_of::<PendingTransaction>() == 1);
    assert!(offset_of!(PendingTransaction, agent) == 8);
    assert!(offset_of!(PendingTransaction, nonce) == 40);
    assert!(offset_of!(PendingTransaction, source) == 48);
    assert!(offset_of!(PendingTransaction, destination) == 80);
    assert!(offset_of!(PendingTransaction, mint) == 112);
    assert!(offset_of!(PendingTransaction, amount) == 144);
    assert!(offset_of!(PendingTransaction, requested_at) == 152);
    assert!(offset_of!(PendingTransaction, expires_at) == 160);
    assert!(offset_of!(PendingTransaction, rent_payer) == 168);
    assert!(offset_of!(PendingTransaction, recipient_handle_len) == 200);
    assert!(offset_of!(PendingTransaction, bump) == 201);
    assert!(offset_of!(PendingTransaction, confidential) == 202);
    assert!(offset_of!(PendingTransaction, recipient_handle) == 208);
    assert!(offset_of!(PendingTransaction, transfer_id) == 272);
    assert!(offset_of!(PendingTransaction, reserved) == 288);
};

/// What `agent_transfer` stores for a held public spend.
pub struct NewHold<'a> {
    pub agent: &'a Pubkey,
    pub nonce: u64,
    pub source: &'a Pubkey,
    pub destination: &'a Pubkey,
    pub mint: &'a Pubkey,
    pub amount: u64,
    pub requested_at: i64,
    pub expires_at: i64,
    pub rent_payer: &'a Pubkey,
    pub recipient_handle: &'a [u8],
    pub bump: u8,
    pub transfer_id: &'a [u8; 16],
}

impl PendingTransaction {
    #[inline]
    pub fn amount(&self) -> u64 {
        u64::from_le_bytes(self.amount)
    }

    #[inline]
    pub fn nonce(&self) -> u64 {
        u64::from_le_bytes(self.nonce)
    }

    #[inline]
    pub fn expires_at(&self) -> i64 {
        i64::from_le_bytes(self.expires_at)
    }

    #[inline]
    pub fn recipient_handle(&self) -> &[u8] {
        prefix(&self.recipient_handle, self.recipient_handle_len)
    }

    /// Approve and reject are possible strictly before `expires_at`; closing by anyone at or after.
    #[inline]
    pub fn is_expired(&self, now: i64) -> bool {
        now >= self.expires_at()
    }

    /// Fills a just-created pending account (`state::init` wrote the discriminator).
    pub fn write_new(&mut self, hold: &NewHold) {
        self.agent = *hold.agent;
        self.nonce = hold.nonce.to_le_bytes();
        self.source = *hold.source;
        self.destination = *hold.destination;
        self.mint = *hold.mint;
        self.amount = hold.amount.to_le_bytes();
        self.requested_at = hold.requested_at.to_le_bytes();
        self.expires_at = hold.expires_at.to_le_bytes();
        self.rent_payer = *hold.rent_payer;
        let handle_len = hold.recipient_handle.len().min(64);
        self.recipient_handle_len = handle_len as u8;
        self.recipient_handle[..handle_len].copy_from_slice(&hold.recipient_handle[..handle_len]);
        self.bump = hold.bump;
        self.confidential = 0;
        self.transfer_id = *hold.transfer_id;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_every_field_at_its_documented_offset() {
        let mut data = Box::new([0u8; LEN]);
        data[..8].copy_from_slice(&PENDING_TRANSACTION);
        let pending = unsafe { &mut *(data.as_mut_ptr() as *mut PendingTransaction) };
        pending.write_new(&NewHold {
            agent: &[1; 32],
            nonce: 5,
            source: &[2; 32],
            destination: &[3; 32],
            mint: &[4; 32],
            amount: 1_000_000,
            requested_at: 100,
            expires_at: 3_700,
            rent_payer: &[6; 32],
            recipient_handle: b"pay.acme",
            bump: 253,
            transfer_id: &[8; 16],
        });
        assert!(!pending.is_expired(3_699));
        assert!(pending.is_expired(3_700));
        assert_eq!(pending.recipient_handle(), b"pay.acme");
        assert_eq!(&data[8..40], &[1; 32]);
        assert_eq!(&data[40..48], &5u64.to_le_bytes());
        assert_eq!(&data[48..80], &[2; 32]);
        assert_eq!(&data[80..112], &[3; 32]);
        assert_eq!(&data[112..144], &[4; 32]);
        assert_eq!(&data[144..152], &1_000_000u64.to_le_bytes());
        assert_eq!(&data[152..160], &100i64.to_le_bytes());
        assert_eq!(&data[160..168], &3_700i64.to_le_bytes());
        assert_eq!(&data[168..200], &[6; 32]);
        assert_eq!(&data[200..203], &[8, 253, 0]);
        assert_eq!(&data[208..216], b"pay.acme");
        assert_eq!(&data[272..288], &[8; 16]);
        assert!(data[288..].iter().all(|b| *b == 0));
    }
}

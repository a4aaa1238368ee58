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
//!    288  128 reserved              public hold: zero (LEN 416)
//! ```
//!
//! A confidential hold (`confidential == 1`) is `CONFIDENTIAL_LEN` (544) bytes; bytes 288..544 are
//! its [`ConfidentialHold`], reachable only through [`confidential_hold_mut`]:
//!
//! ```text
//!    288   32 equality_proof                            pinned Token-2022 context (authority: agent PDA)
//!    320   32 ciphertext_validity_proof                 pinned Token-2022 context
//!    352   32 range_proof                               pinned Token-2022 context
//!    384   36 new_source_decryptable_available_balance  AE blob for Token-2022's Transfer
//!    420   36 spend_decryptable_same_day                prover state AE(total + a), approval on hold_day
//!    456   36 spend_decryptable_next_day                prover state AE(a), approval on a later day
//!    492    8 proven_per_transaction_limit              u64 LE: the bound `m` the hold was proved against
//!    500    8 proven_daily_limit                        u64 LE: the daily limit the hold was proved against
//!    508    8 hold_day                                  i64 LE: UTC day of the request
//!    516   28 reserved
//! ```

use core::mem::offset_of;

use super::layout::{account, layout, I64, U64};
use super::{check_account, prefix};
use crate::discriminator::account::PENDING_TRANSACTION;
use crate::error::PolicyError;
use crate::runtime::account::AccountView;
use crate::runtime::Pubkey;

pub const PENDING_SEED: &[u8] = b"pending";
pub const LEN: usize = 416;
/// Size of a confidential hold: the public layout's first 288 bytes, then a [`ConfidentialHold`].
pub const CONFIDENTIAL_LEN: usize = 544;
pub const CONFIDENTIAL_OFFSET: usize = 288;

account! {
    pub struct PendingTransaction (LEN, PENDING_TRANSACTION) {
        8 agent: Pubkey,
        40 nonce: U64,
        48 source: Pubkey,
        80 destination: Pubkey,
        112 mint: Pubkey,
        144 amount: U64,
        152 requested_at: I64,
        160 expires_at: I64,
        168 rent_payer: Pubkey,
        200 recipient_handle_len: u8,
        201 bump: u8,
        202 confidential: u8,
        203 reserved0: [u8; 5],
        208 recipient_handle: [u8; 64],
        272 transfer_id: [u8; 16],
        288 reserved: [u8; 128],
    }
}

layout! {
    /// The confidential part of a hold (bytes 288..544 of a 544-byte `PendingTransaction`).
    pub struct ConfidentialHold (CONFIDENTIAL_LEN - CONFIDENTIAL_OFFSET) at 288 {
        288 equality_proof: Pubkey,
        320 ciphertext_validity_proof: Pubkey,
        352 range_proof: Pubkey,
        384 new_source_decryptable_available_balance: [u8; 36],
        420 spend_decryptable_same_day: [u8; 36],
        456 spend_decryptable_next_day: [u8; 36],
        492 proven_per_transaction_limit: U64,
        500 proven_daily_limit: U64,
        508 hold_day: I64,
        516 reserved: [u8; 28],
    }
}

impl ConfidentialHold {
    /// The prover-state blob for an approval on `today`: `AE(total + a)` on the hold's day (or a
    /// clock stepped back before it), `AE(a)` on a later day (today's total restarted at 0).
    #[inline]
    pub fn spend_decryptable_on(&self, today: i64) -> &[u8; 36] {
        if today > self.hold_day.get() {
            &self.spend_decryptable_next_day
        } else {
            &self.spend_decryptable_same_day
        }
    }
}

/// The confidential part of a pending account that `load`/`load_mut` already accepted as a
/// `PendingTransaction`: `WrongAccountData` unless `confidential == 1` and the account holds
/// `CONFIDENTIAL_LEN` bytes (owner and discriminator are checked again, they are cheap).
#[allow(clippy::mut_from_ref)]
pub fn confidential_hold_mut<'a>(
    account: &'a AccountView,
    program_id: &Pubkey,
) -> Result<&'a mut ConfidentialHold, PolicyError> {
    check_account(account, program_id, &PENDING_TRANSACTION, CONFIDENTIAL_LEN)?;
    let data = account.data_mut();
    if data[offset_of!(PendingTransaction, confidential)] != 1 {
        return Err(PolicyError::WrongAccountData);
    }
    // Checked above: at least CONFIDENTIAL_LEN bytes; alignment 1, every bit pattern valid.
    Ok(unsafe { &mut *(data.as_mut_ptr().add(CONFIDENTIAL_OFFSET) as *mut ConfidentialHold) })
}

/// What `agent_confidential_transfer` stores in the confidential part of a new hold.
pub struct NewConfidentialHold<'a> {
    pub equality_proof: &'a Pubkey,
    pub ciphertext_validity_proof: &'a Pubkey,
    pub range_proof: &'a Pubkey,
    pub new_source_decryptable_available_balance: &'a [u8; 36],
    pub spend_decryptable_same_day: &'a [u8; 36],
    pub spend_decryptable_next_day: &'a [u8; 36],
    pub proven_per_transaction_limit: u64,
    pub proven_daily_limit: u64,
    pub hold_day: i64,
}

impl ConfidentialHold {
    /// Fills the confidential part of a just-created 544-byte hold.
    pub fn write_new(&mut self, hold: &NewConfidentialHold) {
        self.equality_proof = *hold.equality_proof;
        self.ciphertext_validity_proof = *hold.ciphertext_validity_proof;
        self.range_proof = *hold.range_proof;
        self.new_source_decryptable_available_balance = *hold.new_source_decryptable_available_balance;
        self.spend_decryptable_same_day = *hold.spend_decryptable_same_day;
        self.spend_decryptable_next_day = *hold.spend_decryptable_next_day;
        self.proven_per_transaction_limit.set(hold.proven_per_transaction_limit);
        self.proven_daily_limit.set(hold.proven_daily_limit);
        self.hold_day.set(hold.hold_day);
    }
}

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
    pub fn is_confidential(&self) -> bool {
        self.confidential != 0
    }

    #[inline]
    pub fn recipient_handle(&self) -> &[u8] {
        prefix(&self.recipient_handle, self.recipient_handle_len)
    }

    /// Approve and reject are possible strictly before `expires_at`; closing by anyone at or after.
    #[inline]
    pub fn is_expired(&self, now: i64) -> bool {
        now >= self.expires_at.get()
    }

    /// Fills a just-created pending account (`state::init` wrote the discriminator).
    pub fn write_new(&mut self, hold: &NewHold) {
        self.agent = *hold.agent;
        self.nonce.set(hold.nonce);
        self.source = *hold.source;
        self.destination = *hold.destination;
        self.mint = *hold.mint;
        self.amount.set(hold.amount);
        self.requested_at.set(hold.requested_at);
        self.expires_at.set(hold.expires_at);
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
    use crate::state::test_support::{blank, view};

    #[test]
    fn writes_every_field_at_its_documented_offset() {
        let mut data = blank::<PendingTransaction>();
        let pending = view::<PendingTransaction>(&mut data);
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

    const PROGRAM: Pubkey = [7; 32];

    fn pending_bytes(len: usize, confidential: u8) -> Vec<u8> {
        let mut data = vec![0u8; len];
        data[..8].copy_from_slice(&PENDING_TRANSACTION);
        data[202] = confidential;
        data
    }

    #[test]
    fn the_confidential_part_is_reachable_only_on_a_544_byte_confidential_hold() {
        use crate::state::test_support::HostAccount;
        // A public hold, a confidential flag on a 416-byte account, a 544-byte account flagged public
        for (len, flag) in [(LEN, 0), (LEN, 1), (CONFIDENTIAL_LEN, 0), (CONFIDENTIAL_LEN - 1, 1)] {
            let mut account = HostAccount::new([1; 32], PROGRAM, pending_bytes(len, flag), true);
            assert_eq!(
                confidential_hold_mut(&account.view(), &PROGRAM).err(),
                Some(PolicyError::WrongAccountData),
                "{len} bytes, confidential {flag}"
            );
        }
        let mut foreign = HostAccount::new([1; 32], [8; 32], pending_bytes(CONFIDENTIAL_LEN, 1), true);
        assert_eq!(
            confidential_hold_mut(&foreign.view(), &PROGRAM).err(),
            Some(PolicyError::WrongAccountOwner)
        );
        let mut account = HostAccount::new([1; 32], PROGRAM, pending_bytes(CONFIDENTIAL_LEN, 1), true);
        let view = account.view();
        confidential_hold_mut(&view, &PROGRAM)
            .unwrap()
            .write_new(&NewConfidentialHold {
                equality_proof: &[1; 32],
                ciphertext_validity_proof: &[2; 32],
                range_proof: &[3; 32],
                new_source_decryptable_available_balance: &[4; 36],
                spend_decryptable_same_day: &[5; 36],
                spend_decryptable_next_day: &[6; 36],
                proven_per_transaction_limit: 100,
                proven_daily_limit: 250,
                hold_day: -2,
            });
        let data = view.data();
        assert_eq!(&data[288..320], &[1; 32]);
        assert_eq!(&data[320..352], &[2; 32]);
        assert_eq!(&data[352..384], &[3; 32]);
        assert_eq!(&data[384..420], &[4; 36]);
        assert_eq!(&data[420..456], &[5; 36]);
        assert_eq!(&data[456..492], &[6; 36]);
        assert_eq!(&data[492..500], &100u64.to_le_bytes());
        assert_eq!(&data[500..508], &250u64.to_le_bytes());
        assert_eq!(&data[508..516], &(-2i64).to_le_bytes());
        assert!(data[516..544].iter().all(|b| *b == 0));
        let hold = confidential_hold_mut(&view, &PROGRAM).unwrap();
        assert_eq!(hold.spend_decryptable_on(-2), &[5; 36]);
        assert_eq!(
            hold.spend_decryptable_on(-3),
            &[5; 36],
            "a clock stepped back is still the hold's day"
        );
        assert_eq!(hold.spend_decryptable_on(-1), &[6; 36]);
    }
}

//! `Agent` — PDA `["agent", sha256(agent handle)]`. Its address is the agent's `public_key`: it
//! owns the agent's Token-2022 accounts and signs their transfers through the program, only after
//! the policy allowed them.
//!
//! ```text
//! offset size field
//!      0    8 discriminator    sha256("account:Agent")[..8]
//!      8   32 owner            the wallet that approves holds and edits the policy
//!     40   32 agent_signer     the key that initiates spends; never the owner
//!     72   32 handle_hash      sha256(agent handle): the PDA seed, kept to sign without hashing
//!    104    1 bump             canonical bump of the agent PDA
//!    105    1 policy_bump      canonical bump of ["policy", agent]
//!    106    1 status           1 active
//!    107    1 handle_len       bytes of `handle`
//!    108   64 handle           `owner handle/name`, zero padded
//!    172    8 next_hold_nonce  u64 LE: seed of the next PendingTransaction
//!    180    4 open_holds       u32 LE: pending transactions not yet closed
//!    184    8 created_at       i64 LE unix seconds
//!    192   32 confidential_hold the open confidential PendingTransaction, zero if none
//! ```

use super::layout::{account, I64, U32, U64};
use super::prefix;
use crate::discriminator::account::AGENT;
use crate::error::PolicyError;
use crate::runtime::{is_zero_key, Pubkey};

pub const AGENT_SEED: &[u8] = b"agent";
pub const LEN: usize = 224;
pub const STATUS_ACTIVE: u8 = 1;

account! {
    pub struct Agent (LEN, AGENT) {
        8 owner: Pubkey,
        40 agent_signer: Pubkey,
        72 handle_hash: [u8; 32],
        104 bump: u8,
        105 policy_bump: u8,
        106 status: u8,
        107 handle_len: u8,
        108 handle: [u8; 64],
        172 next_hold_nonce: U64,
        180 open_holds: U32,
        184 created_at: I64,
        192 confidential_hold: Pubkey,
    }
}

/// What `agent_create` stores besides the discriminator.
pub struct NewAgent<'a> {
    pub owner: &'a Pubkey,
    pub agent_signer: &'a Pubkey,
    pub handle_hash: &'a [u8; 32],
    pub bump: u8,
    pub policy_bump: u8,
    pub handle: &'a [u8],
    pub created_at: i64,
}

impl Agent {
    #[inline]
    pub fn handle(&self) -> &[u8] {
        prefix(&self.handle, self.handle_len)
    }

    #[inline]
    pub fn is_active(&self) -> bool {
        self.status == STATUS_ACTIVE
    }

    /// Whether a confidential hold is open: the agent's confidential balance must not change, and
    /// no other outgoing transfer may run, until it is closed.
    #[inline]
    pub fn has_confidential_hold(&self) -> bool {
        !is_zero_key(&self.confidential_hold)
    }

    #[inline]
    pub fn set_confidential_hold(&mut self, pending: &Pubkey) {
        self.confidential_hold = *pending;
    }

    #[inline]
    pub fn clear_confidential_hold(&mut self) {
        self.confidential_hold = [0; 32];
    }

    /// Takes the next hold nonce and counts one more open hold.
    pub fn open_hold(&mut self) -> Result<u64, PolicyError> {
        let nonce = self.next_hold_nonce.get();
        let next = nonce.checked_add(1).ok_or(PolicyError::ArithmeticOverflow)?;
        self.count_open_holds(|open| open.checked_add(1))?;
        self.next_hold_nonce.set(next);
        Ok(nonce)
    }

    /// Counts one hold fewer (approved, rejected or closed after expiry).
    pub fn close_hold(&mut self) -> Result<(), PolicyError> {
        self.count_open_holds(|open| open.checked_sub(1))
    }

    /// `open_holds` moved by `step`, whose `None` (an overflow) is `ArithmeticOverflow`.
    #[inline]
    fn count_open_holds(&mut self, step: impl FnOnce(u32) -> Option<u32>) -> Result<(), PolicyError> {
        let open = step(self.open_holds.get()).ok_or(PolicyError::ArithmeticOverflow)?;
        self.open_holds.set(open);
        Ok(())
    }

    /// Fills a just-created agent account (`state::init` wrote the discriminator).
    pub fn write_new(&mut self, new: &NewAgent) {
        self.owner = *new.owner;
        self.agent_signer = *new.agent_signer;
        self.handle_hash = *new.handle_hash;
        self.bump = new.bump;
        self.policy_bump = new.policy_bump;
        self.status = STATUS_ACTIVE;
        self.handle_len = new.handle.len() as u8;
        self.handle[..new.handle.len()].copy_from_slice(new.handle);
        self.created_at.set(new.created_at);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::test_support::{blank, view};

    #[test]
    fn writes_every_field_at_its_documented_offset() {
        let mut data = blank::<Agent>();
        view::<Agent>(&mut data).write_new(&NewAgent {
            owner: &[1; 32],
            agent_signer: &[2; 32],
            handle_hash: &[3; 32],
            bump: 250,
            policy_bump: 249,
            handle: b"acme/bot",
            created_at: -2,
        });
        assert_eq!(&data[8..40], &[1; 32]);
        assert_eq!(&data[40..72], &[2; 32]);
        assert_eq!(&data[72..104], &[3; 32]);
        assert_eq!(&data[104..108], &[250, 249, STATUS_ACTIVE, 8]);
        assert_eq!(&data[108..116], b"acme/bot");
        assert_eq!(&data[172..184], &[0; 12]);
        assert_eq!(&data[184..192], &(-2i64).to_le_bytes());
        assert!(data[192..].iter().all(|b| *b == 0));
        assert_eq!(view::<Agent>(&mut data).handle(), b"acme/bot");
    }

    #[test]
    fn hold_counters_are_checked() {
        let mut data = blank::<Agent>();
        let agent = view::<Agent>(&mut data);
        assert_eq!(agent.open_hold(), Ok(0));
        assert_eq!(agent.open_hold(), Ok(1));
        assert_eq!((agent.next_hold_nonce.get(), agent.open_holds.get()), (2, 2));
        assert_eq!(&data[172..180], &2u64.to_le_bytes());
        assert_eq!(&data[180..184], &2u32.to_le_bytes());
        let agent = view::<Agent>(&mut data);
        assert_eq!(agent.close_hold(), Ok(()));
        assert_eq!(agent.close_hold(), Ok(()));
        assert_eq!(agent.close_hold(), Err(PolicyError::ArithmeticOverflow));
        agent.next_hold_nonce.set(u64::MAX);
        assert_eq!(agent.open_hold(), Err(PolicyError::ArithmeticOverflow));
    }

    #[test]
    fn confidential_hold_is_stored_at_192_and_zero_means_none() {
        let mut data = blank::<Agent>();
        assert!(!view::<Agent>(&mut data).has_confidential_hold());
        view::<Agent>(&mut data).set_confidential_hold(&[9; 32]);
        assert!(view::<Agent>(&mut data).has_confidential_hold());
        assert_eq!(&data[192..224], &[9; 32]);
        view::<Agent>(&mut data).clear_confidential_hold();
        assert!(!view::<Agent>(&mut data).has_confidential_hold());
        assert!(data[192..].iter().all(|b| *b == 0));
    }
}

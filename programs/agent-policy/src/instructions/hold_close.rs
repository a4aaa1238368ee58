//! Closing a hold: the checks and the last steps that `pending_approve`,
//! `confidential_pending_approve`, `pending_reject` and `pending_close_expired` share. Not an
//! instruction (`hold` creates holds).
//!
//! A hold always closes to whoever paid its rent: `rent_receiver` is writable
//! (`AccountNotWritable`) and `pending.rent_payer` (`WrongRentReceiver`). Closing moves every
//! lamport there, zeroes and truncates the data, assigns the account to the System program and
//! counts one open hold fewer on the agent.

use crate::borsh::no_args;
use crate::error::{PolicyError, ProgramResult};
use crate::event;
use crate::instructions::agent_checks;
use crate::instructions::confidential_spend::{self, Release};
use crate::instructions::spend::{self, SpendAccounts};
use crate::runtime::account::AccountView;
use crate::runtime::input::AccountList;
use crate::runtime::{clock, keys_eq, Pubkey};
use crate::state::agent::Agent;
use crate::state::load_mut;
use crate::state::pending::PendingTransaction;
use crate::state::policy::Policy;

/// Which hold an approval closes: a public one (`pending_approve`) or the agent's open
/// confidential one (`confidential_pending_approve`).
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum HoldPath {
    Public,
    Confidential,
}

/// `rent_receiver` is writable and the hold's rent payer.
#[inline]
fn check_rent_receiver(pending: &PendingTransaction, rent_receiver: &AccountView) -> ProgramResult {
    if !rent_receiver.is_writable() {
        return Err(PolicyError::AccountNotWritable);
    }
    if !keys_eq(&pending.rent_payer, rent_receiver.key()) {
        return Err(PolicyError::WrongRentReceiver);
    }
    Ok(())
}

/// The accounts an approval names, its spend's included.
pub struct ApprovalAccounts<'a, 'b> {
    pub owner: &'a AccountView,
    pub policy: &'a AccountView,
    pub pending: &'a AccountView,
    pub rent_receiver: &'a AccountView,
    pub spend: &'b SpendAccounts<'a>,
    pub path: HoldPath,
}

/// An approval's agent, policy and hold, loaded and checked.
pub struct Approving<'a> {
    pub agent_state: &'a mut Agent,
    pub policy_state: &'a mut Policy,
    pub hold: &'a PendingTransaction,
}

/// What both approvals check first, in this order: agent, policy and pending writable, this
/// program's, of their type; the owner signed (`NotAgentOwner`, `MissingSigner`); the policy is
/// the agent's (`WrongPda`); the hold is this agent's, of this path, and the accounts passed are
/// the held ones (`WrongPendingTransaction`); the rent goes back to its payer; the hold has not
/// expired at `now` (`TransactionExpired`); the agent is active (`AgentNotActive`). Always
/// inlined: measured 20 CU cheaper on `pending_approve`.
#[inline(always)]
pub fn load_approval<'a>(
    accounts: &ApprovalAccounts<'a, '_>,
    program_id: &Pubkey,
    now: i64,
) -> Result<Approving<'a>, PolicyError> {
    let spend = accounts.spend;
    let agent_state = load_mut::<Agent>(spend.agent, program_id)?;
    let policy_state = load_mut::<Policy>(accounts.policy, program_id)?;
    let hold = load_mut::<PendingTransaction>(accounts.pending, program_id)?;
    agent_checks::owner_signs(accounts.owner, agent_state)?;
    let agent_key = spend.agent.key();
    agent_checks::require_policy_of(policy_state, agent_key)?;
    let of_this_path = match accounts.path {
        HoldPath::Public => !hold.is_confidential(),
        HoldPath::Confidential => {
            hold.is_confidential() && keys_eq(&agent_state.confidential_hold, accounts.pending.key())
        }
    };
    if !keys_eq(&hold.agent, agent_key)
        || !keys_eq(&hold.source, spend.source.key())
        || !keys_eq(&hold.destination, spend.destination.key())
        || !keys_eq(&hold.mint, spend.mint.key())
        || !of_this_path
    {
        return Err(PolicyError::WrongPendingTransaction);
    }
    check_rent_receiver(hold, accounts.rent_receiver)?;
    if hold.is_expired(now) {
        return Err(PolicyError::TransactionExpired);
    }
    agent_checks::require_active(agent_state)?;
    Ok(Approving {
        agent_state,
        policy_state,
        hold,
    })
}

/// An approved hold whose transfer has been made.
pub struct Approved<'a, 'b> {
    pub spend: &'b SpendAccounts<'a>,
    pub pending: &'a AccountView,
    pub rent_receiver: &'a AccountView,
    /// The hold's transfer id, which may point into the hold itself: copied before it is closed.
    pub transfer_id: &'a [u8; 16],
    /// A confidential hold also clears `agent.confidential_hold` and emits
    /// `ConfidentialTransferExecuted` instead of `TransferExecuted`.
    pub path: HoldPath,
}

/// The tail of both approvals: one open hold fewer, the hold closed to its rent payer, then the
/// transfer's event (`from_hold: true`) and `TransactionApproved`. Closing zeroes the hold: the
/// transfer id is copied first, and the caller has read everything else it needed from it.
#[inline(always)]
pub fn close_approved(approved: &Approved, agent: &mut Agent) -> ProgramResult {
    let transfer_id = *approved.transfer_id;
    let confidential = approved.path == HoldPath::Confidential;
    agent.close_hold()?;
    if confidential {
        agent.clear_confidential_hold();
    }
    approved.pending.close_to(approved.rent_receiver)?;
    let executed = spend::executed(approved.spend, &transfer_id, true);
    if confidential {
        event::confidential_transfer_executed(&executed);
    } else {
        event::transfer_executed(&executed);
    }
    event::transaction_approved(executed.agent, approved.pending.key(), &transfer_id);
    Ok(())
}

/// How a hold ends without moving anything: rejected by the agent's owner before `expires_at`
/// (`pending_reject`), or closed by anyone from it (`pending_close_expired`).
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    Rejected,
    Expired,
}

/// `pending_reject` and `pending_close_expired`, whose accounts are `[owner, agent, pending,
/// rent_receiver]` (rejected) or `[agent, pending, rent_receiver]` (expired), a confidential
/// hold's four after them. In order: the data (the discriminator only); `NotEnoughAccounts`;
/// agent and pending writable, this program's, of their type; the owner signed (rejected); the
/// hold is this agent's and closes to its rent payer ([`ClosingHold::check_links`]); at the clock's
/// `now`, `TransactionExpired` from `expires_at` (rejected: `pending_close_expired` closes it
/// then) or `TransactionNotExpired` before it (expired). Then [`ClosingHold::release`] and
/// `TransactionRejected` or `TransactionExpired`. Always inlined: `ending` is a constant there.
#[inline(always)]
pub fn end(program_id: &Pubkey, list: &AccountList, data: &[u8], ending: Ending) -> ProgramResult {
    no_args(data)?;
    let (owner, [agent, pending, rent_receiver], own_accounts) = match ending {
        Ending::Rejected => {
            let [owner, agent, pending, rent_receiver] = list.first::<4>()?;
            (Some(owner), [agent, pending, rent_receiver], 4)
        }
        Ending::Expired => {
            let [agent, pending, rent_receiver] = list.first::<3>()?;
            (None, [agent, pending, rent_receiver], 3)
        }
    };
    let closing = ClosingHold::load(agent, pending, rent_receiver, program_id)?;
    if let Some(owner) = owner {
        agent_checks::owner_signs(owner, closing.agent_state)?;
    }
    closing.check_links()?;
    let expired = closing.hold.is_expired(clock::unix_timestamp());
    match ending {
        Ending::Rejected if expired => return Err(PolicyError::TransactionExpired),
        Ending::Expired if !expired => return Err(PolicyError::TransactionNotExpired),
        _ => {}
    }
    let transfer_id = closing.release(program_id, list.rest(own_accounts))?;
    match ending {
        Ending::Rejected => event::transaction_rejected(agent.key(), pending.key(), &transfer_id),
        Ending::Expired => event::transaction_expired(agent.key(), pending.key(), &transfer_id),
    }
    Ok(())
}

/// A hold being rejected or closed after expiry, and the accounts it closes with.
pub struct ClosingHold<'a> {
    pub agent: &'a AccountView,
    pub pending: &'a AccountView,
    pub rent_receiver: &'a AccountView,
    pub agent_state: &'a mut Agent,
    pub hold: &'a PendingTransaction,
}

impl<'a> ClosingHold<'a> {
    /// Agent and pending writable, this program's, of their type.
    #[inline]
    pub fn load(
        agent: &'a AccountView,
        pending: &'a AccountView,
        rent_receiver: &'a AccountView,
        program_id: &Pubkey,
    ) -> Result<Self, PolicyError> {
        Ok(Self {
            agent,
            pending,
            rent_receiver,
            agent_state: load_mut::<Agent>(agent, program_id)?,
            hold: load_mut::<PendingTransaction>(pending, program_id)?,
        })
    }

    /// The hold is this agent's (`WrongPendingTransaction`) and its rent goes back to its payer.
    #[inline]
    pub fn check_links(&self) -> ProgramResult {
        if !keys_eq(&self.hold.agent, self.agent.key()) {
            return Err(PolicyError::WrongPendingTransaction);
        }
        check_rent_receiver(self.hold, self.rent_receiver)
    }

    /// The tail of rejecting and closing after expiry: a confidential hold's contexts, from
    /// `trailing` (the accounts after the instruction's own), are closed and the agent's
    /// `confidential_hold` cleared (`confidential_spend::release`); then one open hold fewer and
    /// the hold closed to its rent payer. Returns the hold's transfer id for the caller's event.
    #[inline]
    pub fn release(self, program_id: &Pubkey, trailing: &[AccountView]) -> Result<[u8; 16], PolicyError> {
        let transfer_id = self.hold.transfer_id;
        if self.hold.is_confidential() {
            // Built here, not before: handing `self` out of line would keep it in memory on the
            // public path too (measured 15 CU on `pending_reject`).
            confidential_spend::release(&mut Release {
                program_id,
                agent: self.agent,
                pending: self.pending,
                rent_receiver: self.rent_receiver,
                agent_state: self.agent_state,
                trailing,
            })?;
        }
        self.agent_state.close_hold()?;
        self.pending.close_to(self.rent_receiver)?;
        Ok(transfer_id)
    }
}

//! Closing a hold: the checks and the last steps that `pending_approve`,
//! `confidential_pending_approve`, `pending_reject` and `pending_close_expired` share. Not an
//! instruction (`hold` creates holds).
//!
//! A hold always closes to whoever paid its rent: `rent_receiver` is writable
//! (`AccountNotWritable`) and `pending.rent_payer` (`WrongRentReceiver`). Closing moves every
//! lamport there, zeroes and truncates the data, assigns the account to the System program and
//! counts one open hold fewer on the agent.

use crate::error::{PolicyError, ProgramResult};
use crate::event;
use crate::instructions::agent_checks;
use crate::instructions::confidential_spend;
use crate::instructions::spend::{self, SpendAccounts};
use crate::runtime::account::AccountView;
use crate::runtime::{keys_eq, Pubkey};
use crate::state::agent::Agent;
use crate::state::pending::PendingTransaction;
use crate::state::policy::Policy;

/// `rent_receiver` is writable and the hold's rent payer.
#[inline]
pub fn check_rent_receiver(pending: &PendingTransaction, rent_receiver: &AccountView) -> ProgramResult {
    if !rent_receiver.is_writable() {
        return Err(PolicyError::AccountNotWritable);
    }
    if !keys_eq(&pending.rent_payer, rent_receiver.key()) {
        return Err(PolicyError::WrongRentReceiver);
    }
    Ok(())
}

/// The links rejecting and closing after expiry check: the hold is this agent's
/// (`WrongPendingTransaction`) and its rent goes back to its payer.
#[inline]
pub fn check_links(agent: &Pubkey, pending: &PendingTransaction, rent_receiver: &AccountView) -> ProgramResult {
    if !keys_eq(&pending.agent, agent) {
        return Err(PolicyError::WrongPendingTransaction);
    }
    check_rent_receiver(pending, rent_receiver)
}

/// What an approval is checked against.
pub struct ApprovalCheck<'a> {
    pub owner: &'a AccountView,
    pub agent: &'a Agent,
    pub policy: &'a Policy,
    pub pending: &'a PendingTransaction,
    pub spend: &'a SpendAccounts<'a>,
    pub rent_receiver: &'a AccountView,
    /// The part of "this is the hold to approve" that differs by path: a public hold for
    /// `pending_approve`, the agent's open confidential hold for `confidential_pending_approve`.
    pub is_this_paths_hold: bool,
    pub now: i64,
}

/// The checks both approvals make, in this order: the owner signed (`NotAgentOwner`,
/// `MissingSigner`); the policy is the agent's (`WrongPda`); the hold is this agent's, of this
/// path, and the accounts passed are the held ones (`WrongPendingTransaction`); the rent goes back
/// to its payer; the hold has not expired (`TransactionExpired`); the agent is active
/// (`AgentNotActive`).
#[inline]
pub fn check_approval(check: &ApprovalCheck) -> ProgramResult {
    agent_checks::owner_signs(check.owner, check.agent)?;
    let spend = check.spend;
    let agent_key = spend.agent.key();
    agent_checks::require_policy_of(check.policy, agent_key)?;
    let pending = check.pending;
    if !keys_eq(&pending.agent, agent_key)
        || !keys_eq(&pending.source, spend.source.key())
        || !keys_eq(&pending.destination, spend.destination.key())
        || !keys_eq(&pending.mint, spend.mint.key())
        || !check.is_this_paths_hold
    {
        return Err(PolicyError::WrongPendingTransaction);
    }
    check_rent_receiver(pending, check.rent_receiver)?;
    if pending.is_expired(check.now) {
        return Err(PolicyError::TransactionExpired);
    }
    agent_checks::require_active(check.agent)
}

/// An approved hold whose transfer has been made.
pub struct Approved<'a> {
    pub spend: &'a SpendAccounts<'a>,
    pub pending: &'a AccountView,
    pub rent_receiver: &'a AccountView,
    /// The hold's transfer id, which may point into the hold itself: copied before it is closed.
    pub transfer_id: &'a [u8; 16],
    /// A confidential hold: clears `agent.confidential_hold` and emits
    /// `ConfidentialTransferExecuted` instead of `TransferExecuted`.
    pub confidential: bool,
}

/// The tail of both approvals: one open hold fewer, the hold closed to its rent payer, then the
/// transfer's event (`from_hold: true`) and `TransactionApproved`. Closing zeroes the hold: the
/// transfer id is copied first, and the caller has read everything else it needed from it.
#[inline(always)]
pub fn close_approved(approved: &Approved, agent: &mut Agent) -> ProgramResult {
    let transfer_id = *approved.transfer_id;
    agent.close_hold()?;
    if approved.confidential {
        agent.clear_confidential_hold();
    }
    approved.pending.close_to(approved.rent_receiver)?;
    let executed = spend::executed(approved.spend, &transfer_id, true);
    if approved.confidential {
        event::confidential_transfer_executed(&executed);
    } else {
        event::transfer_executed(&executed);
    }
    event::transaction_approved(executed.agent, approved.pending.key(), &transfer_id);
    Ok(())
}

/// A hold being rejected or closed after expiry.
pub struct Release<'a> {
    pub program_id: &'a Pubkey,
    pub agent: &'a AccountView,
    pub pending: &'a AccountView,
    pub rent_receiver: &'a AccountView,
    /// The accounts after the instruction's own: for a confidential hold its three pinned
    /// contexts and the ZK program (see `confidential_spend::release`); ignored for a public one.
    pub trailing: &'a [AccountView],
}

/// The tail of rejecting and closing after expiry: a confidential hold's contexts are closed and
/// the agent's `confidential_hold` cleared (`confidential_spend::release`), then one open hold
/// fewer and the hold closed to its rent payer. Returns the hold's transfer id for the caller's
/// event.
#[inline]
pub fn release(release: &Release, agent: &mut Agent, pending: &PendingTransaction) -> Result<[u8; 16], PolicyError> {
    let transfer_id = pending.transfer_id;
    if pending.is_confidential() {
        confidential_spend::release(release, agent)?;
    }
    agent.close_hold()?;
    release.pending.close_to(release.rent_receiver)?;
    Ok(transfer_id)
}

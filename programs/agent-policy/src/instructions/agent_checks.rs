//! The checks on an agent that every instruction acting for it repeats: who signs, whether the
//! agent is active, whether a confidential hold is open, and whether a policy is the agent's. Not
//! an instruction; each instruction calls these in its own order (the order of errors is part of
//! its interface) from its accounts' `unpack`.
//!
//! Who may sign:
//! - the owner approves, rejects and edits the policy: `agent.owner` and never the agent signer
//!   (`NotAgentOwner`; `agent_create` already refuses an agent signer equal to the owner);
//! - the agent signer spends: `agent.agent_signer` (`NotAgentSigner`);
//! - either drives the agent's own confidential balance (nothing leaves the agent's account):
//!   `agent.owner` or `agent.agent_signer` (`NotAgentSigner`).
//!
//! The key is checked before the signature, so a stranger's key is named as such (then
//! `MissingSigner`).

use crate::error::{PolicyError, ProgramResult};
use crate::runtime::account::AccountView;
use crate::runtime::{keys_eq, Pubkey};
use crate::state::agent::Agent;
use crate::state::policy::Policy;

/// `owner` is the agent's owner (and not its agent signer) and signed.
#[inline]
pub fn owner_signs(owner: &AccountView, agent: &Agent) -> ProgramResult {
    let key = owner.key();
    if !keys_eq(key, &agent.owner) || keys_eq(key, &agent.agent_signer) {
        return Err(PolicyError::NotAgentOwner);
    }
    signed(owner)
}

/// `signer` is the agent's agent signer and signed.
#[inline]
pub fn agent_signer_signs(signer: &AccountView, agent: &Agent) -> ProgramResult {
    if !keys_eq(signer.key(), &agent.agent_signer) {
        return Err(PolicyError::NotAgentSigner);
    }
    signed(signer)
}

/// `authority` is the agent's owner or its agent signer, and signed.
#[inline]
pub fn owner_or_agent_signer_signs(authority: &AccountView, agent: &Agent) -> ProgramResult {
    let key = authority.key();
    if !keys_eq(key, &agent.owner) && !keys_eq(key, &agent.agent_signer) {
        return Err(PolicyError::NotAgentSigner);
    }
    signed(authority)
}

#[inline(always)]
fn signed(account: &AccountView) -> ProgramResult {
    if !account.is_signer() {
        return Err(PolicyError::MissingSigner);
    }
    Ok(())
}

/// `AgentNotActive` unless the agent is active.
#[inline]
pub fn require_active(agent: &Agent) -> ProgramResult {
    if !agent.is_active() {
        return Err(PolicyError::AgentNotActive);
    }
    Ok(())
}

/// `ConfidentialHoldOpen` while the agent has an open confidential hold: the balance its proofs
/// were made against must not change, and nothing else may leave the agent's account.
#[inline]
pub fn refuse_open_hold(agent: &Agent) -> ProgramResult {
    if agent.has_confidential_hold() {
        return Err(PolicyError::ConfidentialHoldOpen);
    }
    Ok(())
}

/// `WrongPda` unless the policy is the agent's. A `Policy` of this program links to its agent
/// only if it was created at the agent's policy PDA, so the stored link stands in for the
/// derivation (~1.5k CU).
#[inline]
pub fn require_policy_of(policy: &Policy, agent: &Pubkey) -> ProgramResult {
    if !keys_eq(&policy.agent, agent) {
        return Err(PolicyError::WrongPda);
    }
    Ok(())
}

/// What a spend by the agent signer checks first (`agent_transfer`, `agent_confidential_transfer`),
/// in order: the agent signer signed, the agent is active, the policy is the agent's, no
/// confidential hold is open. Out of line: measured 10 CU cheaper than inlined into
/// `agent_transfer` (less register pressure on the hot path).
#[inline(never)]
pub fn check_spender(signer: &AccountView, agent_key: &Pubkey, agent: &Agent, policy: &Policy) -> ProgramResult {
    agent_signer_signs(signer, agent)?;
    require_active(agent)?;
    require_policy_of(policy, agent_key)?;
    refuse_open_hold(agent)
}

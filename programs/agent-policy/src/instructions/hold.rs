//! The part `agent_transfer` and `agent_confidential_transfer` share when a spend is held:
//! creating the `PendingTransaction` account at `["pending", agent, agent.next_hold_nonce]` and
//! taking the nonce. Not an instruction; the caller writes the hold's fields and emits
//! `TransactionHeld`.
//!
//! Checks, in order: `payer` signs (`MissingSigner`), `payer` and `pending` writable
//! (`AccountNotWritable`), `pending` is the PDA of the agent's next nonce (`WrongPda`, found here:
//! off the hot path), not yet created (`AccountAlreadyInitialized`); `system_program` is checked
//! by the System CPI itself. `expires_at = now + approval_window_seconds` (checked).

use crate::error::PolicyError;
use crate::runtime::account::AccountView;
use crate::runtime::system::create_program_account;
use crate::runtime::Pubkey;
use crate::state::agent::Agent;
use crate::state::find_free_pda;
use crate::state::pending::PENDING_SEED;

/// The accounts a hold is created with.
pub struct HoldAccounts<'a> {
    pub pending: &'a AccountView,
    pub payer: &'a AccountView,
    pub system_program: &'a AccountView,
}

/// What the new pending account needs besides the agent.
pub struct NewPending<'a> {
    pub program_id: &'a Pubkey,
    pub agent_key: &'a Pubkey,
    pub accounts: &'a HoldAccounts<'a>,
    /// `pending::LEN` (public) or `pending::CONFIDENTIAL_LEN`.
    pub space: usize,
    pub approval_window_seconds: u32,
    pub now: i64,
}

/// The created hold's seed, bump and deadline.
pub struct CreatedPending {
    pub nonce: u64,
    pub bump: u8,
    pub expires_at: i64,
}

/// Creates the pending account (rent paid by `payer`, owned by this program, `space` zeroed
/// bytes) and takes the agent's next hold nonce (`open_holds + 1`).
#[inline(never)]
pub fn create(new: &NewPending, agent: &mut Agent) -> Result<CreatedPending, PolicyError> {
    let accounts = new.accounts;
    if !accounts.payer.is_signer() {
        return Err(PolicyError::MissingSigner);
    }
    if !accounts.payer.is_writable() || !accounts.pending.is_writable() {
        return Err(PolicyError::AccountNotWritable);
    }
    let nonce = agent.next_hold_nonce.get();
    let nonce_bytes = nonce.to_le_bytes();
    let bump = find_free_pda(
        accounts.pending,
        &[PENDING_SEED, new.agent_key, &nonce_bytes],
        new.program_id,
    )?;
    let expires_at = new
        .now
        .checked_add(new.approval_window_seconds as i64)
        .ok_or(PolicyError::ArithmeticOverflow)?;
    create_program_account(
        [accounts.payer, accounts.pending, accounts.system_program],
        &[PENDING_SEED, new.agent_key, &nonce_bytes, &[bump]],
        new.space,
        new.program_id,
    )?;
    agent.open_hold()?;
    Ok(CreatedPending {
        nonce,
        bump,
        expires_at,
    })
}

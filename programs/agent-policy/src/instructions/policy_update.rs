//! `policy_update` — the agent's owner changes its policy. Present fields replace the stored ones,
//! absent ones keep their value; the result is validated as a whole (as at creation), the version
//! goes up by one and `updated_at` is now. Today's spend is kept: lowering the daily limit below it
//! blocks further spends today.
//!
//! Data: discriminator `sha256("global:policy_update")[..8]`, `update: PolicyUpdateArgs` (Borsh,
//! see `policy_args`).
//!
//! Accounts:
//! 0. `owner`   signer — must be `agent.owner` (the agent signer can never edit: it is not the owner)
//! 1. `agent`   `Agent` of this program
//! 2. `policy`  writable — `Policy` with `policy.agent == agent`
//!
//! Errors: `NotAgentOwner`, `MissingSigner`, `WrongPda` (another agent's policy), the argument
//! errors of `policy_args`, the validation errors of `Policy::validate`, `ArithmeticOverflow`
//! (version).
//!
//! Emits `PolicyUpdated { agent, policy, version, updated_at }`.

use crate::borsh::read_args;
use crate::error::{PolicyError, ProgramResult};
use crate::event;
use crate::instructions::agent_checks;
use crate::instructions::policy_args::read_policy_update_args;
use crate::runtime::account::AccountView;
use crate::runtime::input::AccountList;
use crate::runtime::{clock, Pubkey};
use crate::state::agent::Agent;
use crate::state::policy::Policy;
use crate::state::{load, load_mut};

/// The accounts of one policy update, checked.
struct PolicyUpdateAccounts<'a> {
    agent: &'a AccountView,
    policy: &'a AccountView,
    policy_state: &'a mut Policy,
}

impl<'a> PolicyUpdateAccounts<'a> {
    /// In order: `NotEnoughAccounts`; the agent (this program's, of its type); the policy
    /// (writable, this program's, of its type); the owner signed; the policy is the agent's.
    fn unpack(list: &'a AccountList, program_id: &Pubkey) -> Result<Self, PolicyError> {
        let [owner, agent, policy] = list.first::<3>()?;
        let agent_state = load::<Agent>(agent, program_id)?;
        let policy_state = load_mut::<Policy>(policy, program_id)?;
        agent_checks::owner_signs(owner, agent_state)?;
        agent_checks::require_policy_of(policy_state, agent.key())?;
        Ok(Self {
            agent,
            policy,
            policy_state,
        })
    }
}

/// Applies one policy update (see the module doc for data, accounts and checks).
pub fn process(program_id: &Pubkey, list: &AccountList, data: &[u8]) -> ProgramResult {
    let accounts = PolicyUpdateAccounts::unpack(list, program_id)?;
    let policy = accounts.policy_state;

    // Written in place: any error below fails the instruction and the runtime discards the writes.
    read_args(data, |reader| read_policy_update_args(reader, policy))?;
    policy.validate()?;
    let version = policy
        .version
        .get()
        .checked_add(1)
        .ok_or(PolicyError::ArithmeticOverflow)?;
    let now = clock::unix_timestamp();
    policy.version.set(version);
    policy.updated_at.set(now);
    event::policy_updated(accounts.agent.key(), accounts.policy.key(), version, now);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::discriminator::{event as event_disc, instruction};
    use crate::instructions::test_fixtures::*;
    use crate::runtime::input::test_support::TestAccount;

    fn accounts() -> Vec<TestAccount> {
        vec![
            signer(wallet(OWNER)),
            account(AGENT, PROGRAM, agent_data()),
            writable(account(POLICY, PROGRAM, policy_data())),
        ]
    }

    /// Sets only the daily limit (the other seven fields `None`).
    fn set_daily(limit: u64) -> Vec<u8> {
        let mut data = instruction::POLICY_UPDATE.to_vec();
        data.extend_from_slice(&[0, 1]);
        data.extend_from_slice(&limit.to_le_bytes());
        data.extend_from_slice(&[0; 6]);
        data
    }

    #[test]
    fn the_owner_updates_one_field_and_the_version_moves() {
        let run = run(accounts(), &set_daily(999), NOON);
        assert_eq!(run.result, Ok(()));
        let policy = run.data(2);
        assert_eq!(u64_at(policy, 56), 999);
        assert_eq!(u64_at(policy, 48), 100);
        assert_eq!(u32::from_le_bytes(policy[40..44].try_into().unwrap()), 2);
        assert_eq!(i64_at(policy, 96), NOON);
        let mut expected = event_disc::POLICY_UPDATED.to_vec();
        expected.extend_from_slice(&AGENT);
        expected.extend_from_slice(&POLICY);
        expected.extend_from_slice(&2u32.to_le_bytes());
        expected.extend_from_slice(&NOON.to_le_bytes());
        assert_eq!(run.events, vec![expected]);
    }

    #[test]
    fn only_the_owner_may_edit() {
        let mut by_signer = accounts();
        by_signer[0].key = SIGNER;
        assert_eq!(
            run(by_signer, &set_daily(1), NOON).result,
            Err(PolicyError::NotAgentOwner)
        );
        let mut unsigned = accounts();
        unsigned[0].is_signer = false;
        assert_eq!(
            run(unsigned, &set_daily(1), NOON).result,
            Err(PolicyError::MissingSigner)
        );
        let mut other_policy = accounts();
        other_policy[2].data[8..40].copy_from_slice(&[0x31; 32]);
        assert_eq!(
            run(other_policy, &set_daily(1), NOON).result,
            Err(PolicyError::WrongPda)
        );
    }

    #[test]
    fn an_invalid_result_is_refused() {
        // active_end_minute = 1440
        let mut data = instruction::POLICY_UPDATE.to_vec();
        data.extend_from_slice(&[0, 0, 0, 0, 1]);
        data.extend_from_slice(&1440u16.to_le_bytes());
        data.extend_from_slice(&[0, 0, 0]);
        assert_eq!(
            run(accounts(), &data, NOON).result,
            Err(PolicyError::InvalidActiveHours)
        );
        // An approval window of 0
        let mut data = instruction::POLICY_UPDATE.to_vec();
        data.extend_from_slice(&[0, 0, 0, 0, 0, 1]);
        data.extend_from_slice(&0u32.to_le_bytes());
        data.extend_from_slice(&[0, 0]);
        assert_eq!(
            run(accounts(), &data, NOON).result,
            Err(PolicyError::InvalidApprovalWindow)
        );
        // Truncated
        assert_eq!(
            run(accounts(), &set_daily(1)[..15], NOON).result,
            Err(PolicyError::InvalidInstructionData)
        );
    }
}

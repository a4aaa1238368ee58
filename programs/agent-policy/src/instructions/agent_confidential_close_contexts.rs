//! `agent_confidential_close_contexts` — closes ZK proof contexts whose authority is the agent
//! PDA (left by a failed or abandoned confidential transfer), their rent to `rent_receiver`:
//! one ZK ElGamal Proof `CloseContextState` CPI per context, signed by the agent PDA. Refused
//! while a confidential hold is open (its pinned contexts must survive until it is closed).
//!
//! Data (8 bytes): discriminator `sha256("global:agent_confidential_close_contexts")[..8]`.
//!
//! Accounts:
//! 0. `authority`                signer — `agent.owner` or `agent.agent_signer`
//! 1. `agent`                    `Agent` of this program, active, no confidential hold open
//! 2. `rent_receiver`            writable — receives the contexts' lamports
//! 3. `zk_elgamal_proof_program` `ZkE1Gama1Proof11111111111111111111111111111`
//! 4.. 1 to 6 `contexts`         writable — owned by the ZK program, at least the 33-byte header,
//!    `context_state_authority` = the agent PDA; any proof type
//!
//! Errors: as `confidential_account` (`ConfidentialHoldOpen` included); `rent_receiver` read-only
//! -> `AccountNotWritable`; `WrongProgram`; no context -> `NotEnoughAccounts`, more than 6 ->
//! `InvalidInstructionData`; a context read-only -> `AccountNotWritable`, otherwise not as above
//! -> `WrongProofContext`. Every context is checked before the first is closed. Emits nothing.

use crate::borsh::no_args;
use crate::error::{PolicyError, ProgramResult};
use crate::instructions::{agent_checks, agent_signer, confidential_account, confidential_spend};
use crate::runtime::account::AccountView;
use crate::runtime::cpi::Signer;
use crate::runtime::input::AccountList;
use crate::runtime::Pubkey;
use crate::state::agent::Agent;
use crate::zk_context;

/// Accounts before the contexts.
const FIXED_ACCOUNTS: usize = 4;
pub const MAX_CONTEXTS: usize = 6;

/// The accounts of one close, checked: every context before the first is closed.
struct AgentConfidentialCloseContextsAccounts<'a> {
    agent: &'a AccountView,
    rent_receiver: &'a AccountView,
    /// 1 to `MAX_CONTEXTS` contexts of the agent.
    contexts: &'a [AccountView],
    agent_state: &'a Agent,
}

impl<'a> AgentConfidentialCloseContextsAccounts<'a> {
    /// In order: `NotEnoughAccounts` (the fixed accounts, then no context);
    /// `InvalidInstructionData` (more than `MAX_CONTEXTS`); the agent and its authority
    /// (`confidential_account::authorize`); no open confidential hold; `rent_receiver` writable;
    /// the ZK program (`WrongProgram`); each context (`zk_context::check_closable`).
    fn unpack(list: &'a AccountList, program_id: &Pubkey) -> Result<Self, PolicyError> {
        let [authority, agent, rent_receiver, zk_program] = list.first::<FIXED_ACCOUNTS>()?;
        let contexts = list.rest(FIXED_ACCOUNTS);
        if contexts.is_empty() {
            return Err(PolicyError::NotEnoughAccounts);
        }
        if contexts.len() > MAX_CONTEXTS {
            return Err(PolicyError::InvalidInstructionData);
        }
        let agent_state = confidential_account::authorize(authority, agent, program_id)?;
        agent_checks::refuse_open_hold(agent_state)?;
        if !rent_receiver.is_writable() {
            return Err(PolicyError::AccountNotWritable);
        }
        confidential_spend::check_zk_program(zk_program)?;
        for context in contexts {
            zk_context::check_closable(context, agent.key())?;
        }
        Ok(Self {
            agent,
            rent_receiver,
            contexts,
            agent_state,
        })
    }
}

/// Closes the agent's leftover proof contexts (see the module doc).
pub fn process(program_id: &Pubkey, list: &AccountList, data: &[u8]) -> ProgramResult {
    no_args(data)?;
    let accounts = AgentConfidentialCloseContextsAccounts::unpack(list, program_id)?;
    let seeds = agent_signer::seeds(accounts.agent_state);
    let signer = Signer::new(&seeds);
    confidential_spend::close_all(accounts.contexts, [accounts.rent_receiver, accounts.agent], &signer)
}

#[cfg(test)]
pub(crate) mod tests {
    use crate::discriminator::instruction;
    use crate::error::PolicyError;
    use crate::instructions::confidential_account::test_support::*;
    use crate::instructions::test_fixtures::*;
    use crate::runtime::input::test_support::TestAccount;
    use crate::runtime::ZK_ELGAMAL_PROOF_PROGRAM_ID;

    /// A writable context of the ZK program, its authority the agent PDA.
    fn context(key: u8, len: usize, kind: u8) -> TestAccount {
        let mut data = vec![0u8; len];
        data[..32].copy_from_slice(&AGENT);
        data[32] = kind;
        writable(account([key; 32], ZK_ELGAMAL_PROOF_PROGRAM_ID, data))
    }

    /// The accounts of a valid close of `contexts` contexts (the table of shared refusals in
    /// `confidential_account` starts from three).
    pub(crate) fn accounts(contexts: usize) -> Vec<TestAccount> {
        let mut accounts = vec![
            signer(wallet(SIGNER)),
            account(AGENT, PROGRAM, agent_data()),
            writable(wallet(PAYER)),
            program_account(ZK_ELGAMAL_PROOF_PROGRAM_ID),
        ];
        let shapes = [(161, 3), (385, 12), (297, 7), (297, 6), (65, 4), (33, 0)];
        for (i, (len, kind)) in shapes.iter().take(contexts).enumerate() {
            accounts.push(context(0x40 + i as u8, *len, *kind));
        }
        accounts
    }

    /// Closing `contexts` contexts.
    fn closing(contexts: usize) -> Call {
        Call::new(&instruction::AGENT_CONFIDENTIAL_CLOSE_CONTEXTS, accounts(contexts))
    }

    #[test]
    fn closes_each_context_to_the_rent_receiver_signed_by_the_agent() {
        for count in [1, 3, 6] {
            for cpis in cpis_by_each_authority(|| accounts(count), &instruction::AGENT_CONFIDENTIAL_CLOSE_CONTEXTS) {
                assert_eq!(cpis.len(), count);
                for (i, cpi) in cpis.iter().enumerate() {
                    assert_eq!(cpi.program_id, ZK_ELGAMAL_PROOF_PROGRAM_ID);
                    assert_eq!(cpi.data, vec![0]);
                    assert_eq!(cpi.accounts, then_the_agent(&[([0x40 + i as u8; 32], W), (PAYER, W)]));
                }
            }
        }
    }

    #[test]
    fn one_to_six_contexts() {
        closing(0).refused(PolicyError::NotEnoughAccounts);
        let mut seven = closing(6);
        seven.accounts.push(context(0x50, 161, 3));
        seven.refused(PolicyError::InvalidInstructionData);
    }

    #[test]
    fn the_receiver_and_the_zk_program_are_checked() {
        refuses_each(
            || closing(3),
            &[
                (2, |r| r.is_writable = false, PolicyError::AccountNotWritable),
                (3, |p| p.key = [0x66; 32], PolicyError::WrongProgram),
            ],
        );
    }

    #[test]
    fn every_context_must_be_the_agents_before_any_is_closed() {
        refuses_each(
            || closing(3),
            &[
                // The last of three is bad: nothing is closed
                (6, |c| c.data[0] ^= 1, PolicyError::WrongProofContext),
                (6, |c| c.owner = [0x99; 32], PolicyError::WrongProofContext),
                (6, |c| c.data.truncate(32), PolicyError::WrongProofContext),
                (4, |c| c.is_writable = false, PolicyError::AccountNotWritable),
                // The agent itself is not a context
                (
                    5,
                    |c| *c = writable(account(AGENT, PROGRAM, agent_data())),
                    PolicyError::WrongProofContext,
                ),
            ],
        );
    }
}

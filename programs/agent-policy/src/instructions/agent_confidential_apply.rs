//! `agent_confidential_apply` — moves the pending confidential balance of one of the agent's
//! Token-2022 accounts into its available balance (Token-2022 `ApplyPendingBalance` signed by the
//! agent PDA). Refused while a confidential hold is open: the held proofs were made against the
//! available balance as it is.
//!
//! Data (52 bytes): discriminator `sha256("global:agent_confidential_apply")[..8]`,
//! `expected_pending_balance_credit_counter: u64`, `new_decryptable_available_balance: [u8; 36]`
//! (AE ciphertext of the new available balance under the agent's AE key).
//!
//! Accounts:
//! 0. `authority`      signer — `agent.owner` or `agent.agent_signer`
//! 1. `agent`          `Agent` of this program, active, no confidential hold open
//! 2. `token_account`  writable — Token-2022 account owned by the agent PDA, configured
//! 3. `token_program`  `TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb`
//!
//! Checks: see `confidential_account` (`ConfidentialHoldOpen` included). Emits nothing.

use crate::borsh::Reader;
use crate::error::{PolicyError, ProgramResult};
use crate::instructions::{agent_checks, agent_signer, confidential_account};
use crate::runtime::account::AccountView;
use crate::runtime::cpi::Signer;
use crate::runtime::input::AccountList;
use crate::runtime::Pubkey;
use crate::state::agent::Agent;
use crate::token_confidential::{self, ApplyPendingBalance, DecryptableBalance};

pub const DATA_LEN: usize = 52;

/// The accounts of one apply, checked.
struct AgentConfidentialApplyAccounts<'a> {
    agent: &'a AccountView,
    token_account: &'a AccountView,
    agent_state: &'a Agent,
}

impl<'a> AgentConfidentialApplyAccounts<'a> {
    /// In order: `NotEnoughAccounts`; the agent and its authority (`confidential_account::authorize`);
    /// no open confidential hold; the agent's token account.
    fn unpack(list: &'a AccountList, program_id: &Pubkey) -> Result<Self, PolicyError> {
        let [authority, agent, token_account, token_program] = list.first::<4>()?;
        let agent_state = confidential_account::authorize(authority, agent, program_id)?;
        agent_checks::refuse_open_hold(agent_state)?;
        confidential_account::agent_token_account(agent, token_account, token_program)?;
        Ok(Self {
            agent,
            token_account,
            agent_state,
        })
    }
}

struct Args<'a> {
    expected_pending_balance_credit_counter: u64,
    new_decryptable_available_balance: &'a DecryptableBalance,
}

fn parse(data: &[u8]) -> Result<Args<'_>, PolicyError> {
    let mut reader = Reader::new(&data[8..]);
    let args = Args {
        expected_pending_balance_credit_counter: reader.u64()?,
        new_decryptable_available_balance: reader.array()?,
    };
    reader.finish()?;
    Ok(args)
}

/// Applies the agent account's pending balance (see the module doc).
pub fn process(program_id: &Pubkey, list: &AccountList, data: &[u8]) -> ProgramResult {
    let args = parse(data)?;
    let accounts = AgentConfidentialApplyAccounts::unpack(list, program_id)?;
    let seeds = agent_signer::seeds(accounts.agent_state);
    token_confidential::apply_pending_balance(&ApplyPendingBalance {
        token: accounts.token_account,
        owner: accounts.agent,
        expected_pending_balance_credit_counter: args.expected_pending_balance_credit_counter,
        new_decryptable_available_balance: args.new_decryptable_available_balance,
        signer: &Signer::new(&seeds),
    })
}

#[cfg(test)]
pub(crate) mod tests {
    use crate::discriminator::instruction;
    use crate::instructions::confidential_account::test_support::*;
    use crate::instructions::test_fixtures::*;
    use crate::runtime::input::test_support::TestAccount;
    use crate::runtime::TOKEN_2022_PROGRAM_ID;

    /// The data of a valid apply (the table of shared refusals in `confidential_account` starts
    /// from it and from [`accounts`]).
    pub(crate) fn data() -> Vec<u8> {
        let mut data = instruction::AGENT_CONFIDENTIAL_APPLY.to_vec();
        data.extend_from_slice(&3u64.to_le_bytes());
        data.extend_from_slice(&[0x6B; 36]);
        data
    }

    /// The accounts of a valid apply.
    pub(crate) fn accounts() -> Vec<TestAccount> {
        vec![
            signer(wallet(SIGNER)),
            account(AGENT, PROGRAM, agent_data()),
            agent_token(),
            program_account(TOKEN_2022_PROGRAM_ID),
        ]
    }

    #[test]
    fn applies_the_pending_balance_signed_by_the_agent() {
        for cpis in cpis_by_each_authority(accounts, &data()) {
            let [cpi] = &cpis[..] else { panic!("expected one CPI") };
            assert_eq!(cpi.program_id, TOKEN_2022_PROGRAM_ID);
            assert_eq!(cpi.data, [&[27, 8][..], &3u64.to_le_bytes(), &[0x6B; 36]].concat());
            assert_eq!(cpi.accounts, vec![(SOURCE, true, false), (AGENT, false, true)]);
        }
    }
}

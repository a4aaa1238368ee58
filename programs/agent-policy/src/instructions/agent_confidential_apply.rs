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

use crate::borsh::{read_args, Reader};
use crate::error::ProgramResult;
use crate::instructions::confidential_account::{AgentTokenAccount, WhileHolding};
use crate::runtime::cpi::Signer;
use crate::runtime::input::AccountList;
use crate::runtime::Pubkey;
use crate::token_confidential;

pub const DATA_LEN: usize = 52;

/// Applies the agent account's pending balance (see the module doc). Checks, in order: the data,
/// `NotEnoughAccounts`, the agent, its authority, no open confidential hold and its token account
/// (`AgentTokenAccount::unpack`).
pub fn process(program_id: &Pubkey, list: &AccountList, data: &[u8]) -> ProgramResult {
    let (expected_pending_balance_credit_counter, new_decryptable_available_balance) =
        read_args(data, |reader: &mut Reader| Ok((reader.int()?, reader.array()?)))?;
    let [authority, agent, token_account, token_program] = list.first::<4>()?;
    let account = AgentTokenAccount::unpack(
        [authority, agent, token_account, token_program],
        program_id,
        WhileHolding::Refused,
    )?;
    let seeds = account.signer_seeds();
    token_confidential::apply_pending_balance(
        [token_account, agent],
        expected_pending_balance_credit_counter,
        new_decryptable_available_balance,
        &Signer::new(&seeds),
    )
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
        [
            &instruction::AGENT_CONFIDENTIAL_APPLY[..],
            &3u64.to_le_bytes(),
            &[0x6B; 36],
        ]
        .concat()
    }

    /// The accounts of a valid apply.
    pub(crate) fn accounts() -> Vec<TestAccount> {
        agent_token_call([program_account(TOKEN_2022_PROGRAM_ID)])
    }

    #[test]
    fn applies_the_pending_balance_signed_by_the_agent() {
        for cpis in cpis_by_each_authority(accounts, &data()) {
            let [cpi] = &cpis[..] else { panic!("expected one CPI") };
            assert_eq!(cpi.program_id, TOKEN_2022_PROGRAM_ID);
            assert_eq!(cpi.data, [&[27, 8][..], &3u64.to_le_bytes(), &[0x6B; 36]].concat());
            assert_eq!(cpi.accounts, then_the_agent(&[(SOURCE, W)]));
        }
    }
}

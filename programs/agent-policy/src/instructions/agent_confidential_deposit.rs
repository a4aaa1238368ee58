//! `agent_confidential_deposit` — moves `amount` of the public balance of one of the agent's
//! Token-2022 accounts into its pending confidential balance (Token-2022 confidential `Deposit`
//! signed by the agent PDA). The amount is public already; nothing leaves the account.
//!
//! Data (16 bytes): discriminator `sha256("global:agent_confidential_deposit")[..8]`,
//! `amount: u64`.
//!
//! Accounts:
//! 0. `authority`      signer — `agent.owner` or `agent.agent_signer`
//! 1. `agent`          `Agent` of this program, active
//! 2. `token_account`  writable — Token-2022 account of `mint` owned by the agent PDA, configured
//! 3. `mint`           Token-2022 mint (decimals read from it)
//! 4. `token_program`  `TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb`
//!
//! Checks: see `confidential_account` (no hold check: a deposit only adds to the pending balance,
//! which the held proofs do not depend on). Emits nothing.

use crate::borsh::{read_args, Reader};
use crate::error::ProgramResult;
use crate::instructions::confidential_account::{AgentTokenAccount, WhileHolding};
use crate::runtime::cpi::Signer;
use crate::runtime::input::AccountList;
use crate::runtime::Pubkey;
use crate::token_confidential;

pub const DATA_LEN: usize = 16;

/// Deposits into the agent's pending confidential balance (see the module doc). Checks, in
/// order: the data, `NotEnoughAccounts`, the agent, its authority and its token account
/// (`AgentTokenAccount::unpack`), the mint.
pub fn process(program_id: &Pubkey, list: &AccountList, data: &[u8]) -> ProgramResult {
    let amount = read_args(data, Reader::int)?;
    let [authority, agent, token_account, mint, token_program] = list.first::<5>()?;
    let account = AgentTokenAccount::unpack(
        [authority, agent, token_account, token_program],
        program_id,
        WhileHolding::Allowed,
    )?;
    let decimals = account.mint_decimals(mint)?;
    let seeds = account.signer_seeds();
    token_confidential::deposit([token_account, mint, agent], amount, decimals, &Signer::new(&seeds))
}

#[cfg(test)]
pub(crate) mod tests {
    use crate::discriminator::instruction;
    use crate::instructions::confidential_account::test_support::*;
    use crate::instructions::test_fixtures::*;
    use crate::runtime::input::test_support::TestAccount;
    use crate::runtime::TOKEN_2022_PROGRAM_ID;

    /// The data of a valid deposit (the table of shared refusals in `confidential_account` starts
    /// from it and from [`accounts`]).
    pub(crate) fn data(amount: u64) -> Vec<u8> {
        [&instruction::AGENT_CONFIDENTIAL_DEPOSIT[..], &amount.to_le_bytes()].concat()
    }

    /// The accounts of a valid deposit.
    pub(crate) fn accounts() -> Vec<TestAccount> {
        agent_token_call([token(MINT, mint_data(6)), program_account(TOKEN_2022_PROGRAM_ID)])
    }

    #[test]
    fn deposits_with_the_mints_decimals_signed_by_the_agent() {
        for cpis in cpis_by_each_authority(accounts, &data(700)) {
            let [cpi] = &cpis[..] else { panic!("expected one CPI") };
            assert_eq!(cpi.program_id, TOKEN_2022_PROGRAM_ID);
            assert_eq!(cpi.data, [&[27, 5][..], &700u64.to_le_bytes(), &[6]].concat());
            assert_eq!(cpi.accounts, then_the_agent(&[(SOURCE, W), (MINT, R)]));
        }
    }
}

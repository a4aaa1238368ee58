//! The part the agent's confidential-account instructions share (`agent_confidential_configure`,
//! `_deposit`, `_apply`, `_withdraw`, `_close_contexts`): who may drive the agent's confidential
//! balance, and which token account. None of them moves funds out of the agent's account, so
//! either of the agent's keys may: the owner or the agent signer. Not an instruction.
//!
//! Checks, in this order:
//! - `agent`: an `Agent` of this program (`WrongAccountOwner` / `WrongAccountData`), read-only;
//! - `authority` is `agent.owner` or `agent.agent_signer` (`NotAgentSigner`) and signs
//!   (`MissingSigner`); the agent is active (`AgentNotActive`);
//! - where the balance the held proofs were made against could change (apply, withdraw, closing
//!   contexts), no confidential hold is open (`ConfidentialHoldOpen`, `agent_checks`);
//! - `token_program` is Token-2022 (`WrongProgram`); `token_account` writable
//!   (`AccountNotWritable`), an initialized, unfrozen Token-2022 account owned by the agent PDA
//!   (`WrongTokenAccount`); `mint`, where passed, an initialized Token-2022 mint and the account's
//!   (`WrongTokenAccount`).

use crate::error::PolicyError;
use crate::instructions::agent_checks;
use crate::runtime::account::AccountView;
use crate::runtime::{keys_eq, Pubkey, TOKEN_2022_PROGRAM_ID};
use crate::state::agent::Agent;
use crate::state::load;
use crate::token::{self, TokenAccount};

/// The agent, after its own checks and the authority's.
#[inline]
pub fn authorize<'a>(
    authority: &AccountView,
    agent: &'a AccountView,
    program_id: &Pubkey,
) -> Result<&'a Agent, PolicyError> {
    let loaded = load::<Agent>(agent, program_id)?;
    agent_checks::owner_or_agent_signer_signs(authority, loaded)?;
    agent_checks::require_active(loaded)?;
    Ok(loaded)
}

/// The agent's Token-2022 account, after the token-program and token-account checks.
#[inline]
pub fn agent_token_account<'a>(
    agent: &AccountView,
    token_account: &'a AccountView,
    token_program: &AccountView,
) -> Result<TokenAccount<'a>, PolicyError> {
    if !keys_eq(token_program.key(), &TOKEN_2022_PROGRAM_ID) {
        return Err(PolicyError::WrongProgram);
    }
    if !token_account.is_writable() {
        return Err(PolicyError::AccountNotWritable);
    }
    let parsed = token::token_account(token_account)?;
    if !keys_eq(parsed.owner(), agent.key()) {
        return Err(PolicyError::WrongTokenAccount);
    }
    Ok(parsed)
}

/// The decimals of `mint`, which must be `token`'s mint.
#[inline]
pub fn mint_of(token: &TokenAccount, mint: &AccountView) -> Result<u8, PolicyError> {
    let decimals = token::mint_decimals(mint)?;
    if !keys_eq(token.mint(), mint.key()) {
        return Err(PolicyError::WrongTokenAccount);
    }
    Ok(decimals)
}

#[cfg(test)]
pub(crate) mod test_support {
    //! What the confidential-account instruction tests share.
    use crate::instructions::test_fixtures::*;
    use crate::runtime::input::test_support::TestAccount;

    /// The agent with an open confidential hold (its `confidential_hold` set to PENDING).
    pub fn agent_with_hold() -> Vec<u8> {
        let mut data = agent_data();
        data[192..224].copy_from_slice(&PENDING);
        data
    }

    /// The agent's Token-2022 account of MINT.
    pub fn agent_token() -> TestAccount {
        writable(token(SOURCE, token_account_data(MINT, AGENT, 1_000)))
    }

    /// `refused` with nothing recorded: no CPI, no event.
    pub fn refused(run: &Run, error: crate::error::PolicyError) {
        assert_eq!(run.result, Err(error));
        assert!(run.invocations.is_empty(), "nothing may be invoked when refused");
        assert!(run.events.is_empty());
    }

    /// The agent's seeds as the recorded CPI carries them.
    pub fn agent_seeds() -> Vec<Vec<Vec<u8>>> {
        vec![vec![b"agent".to_vec(), HANDLE_HASH.to_vec(), vec![AGENT_BUMP]]]
    }
}

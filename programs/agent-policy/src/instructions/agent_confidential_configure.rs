//! `agent_confidential_configure` — turns on confidential transfers for one of the agent's
//! Token-2022 accounts: Token-2022 `Reallocate([ConfidentialTransferAccount])` (the payer pays the
//! extra rent), then `ConfigureAccount` with `proof_instruction_offset = 1`, both signed by the
//! agent PDA. The transaction's next top-level instruction must be the ZK ElGamal Proof program's
//! `VerifyPubkeyValidity` for the agent's ElGamal key (Token-2022 reads it there).
//!
//! Data (52 bytes): discriminator `sha256("global:agent_confidential_configure")[..8]`,
//! `decryptable_zero_balance: [u8; 36]` (AE ciphertext of 0 under the agent's AE key),
//! `maximum_pending_balance_credit_counter: u64`.
//!
//! Accounts:
//! 0. `authority`           signer — `agent.owner` or `agent.agent_signer`
//! 1. `agent`               `Agent` of this program, active
//! 2. `token_account`       writable — Token-2022 account of `mint` owned by the agent PDA
//! 3. `mint`                Token-2022 mint (with the ConfidentialTransferMint extension)
//! 4. `payer`               signer, writable — pays the reallocation
//! 5. `instructions_sysvar` `Sysvar1nstructions1111111111111111111111111`
//! 6. `token_program`       `TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb`
//! 7. `system_program`      `11111111111111111111111111111111`
//!
//! Checks: see `confidential_account` (no hold check: configuring changes no balance); then
//! `payer` signs (`MissingSigner`) and is writable (`AccountNotWritable`); `instructions_sysvar`
//! and `system_program` are what they claim (`WrongProgram`). Emits nothing.

use crate::borsh::{read_args, Reader};
use crate::error::{PolicyError, ProgramResult};
use crate::instructions::confidential_account::{AgentTokenAccount, WhileHolding};
use crate::runtime::cpi::Signer;
use crate::runtime::input::AccountList;
use crate::runtime::{keys_eq, Pubkey, INSTRUCTIONS_SYSVAR_ID, SYSTEM_PROGRAM_ID};
use crate::token_confidential;

pub const DATA_LEN: usize = 52;

/// Configures the agent's token account for confidential transfers (see the module doc). Checks,
/// in order: the data, `NotEnoughAccounts`, the agent, its authority and its token account
/// (`AgentTokenAccount::unpack`), the mint, `payer` signs (`MissingSigner`) and is writable
/// (`AccountNotWritable`), the instructions sysvar and the System program (`WrongProgram`).
pub fn process(program_id: &Pubkey, list: &AccountList, data: &[u8]) -> ProgramResult {
    let (decryptable_zero_balance, maximum_pending_balance_credit_counter) =
        read_args(data, |reader: &mut Reader| Ok((reader.array()?, reader.int()?)))?;
    let [authority, agent, token_account, mint, payer, instructions_sysvar, token_program, system_program] =
        list.first::<8>()?;
    let account = AgentTokenAccount::unpack(
        [authority, agent, token_account, token_program],
        program_id,
        WhileHolding::Allowed,
    )?;
    account.mint_decimals(mint)?;
    if !payer.is_signer() {
        return Err(PolicyError::MissingSigner);
    }
    if !payer.is_writable() {
        return Err(PolicyError::AccountNotWritable);
    }
    if !keys_eq(instructions_sysvar.key(), &INSTRUCTIONS_SYSVAR_ID)
        || !keys_eq(system_program.key(), &SYSTEM_PROGRAM_ID)
    {
        return Err(PolicyError::WrongProgram);
    }
    let seeds = account.signer_seeds();
    let signer = Signer::new(&seeds);
    token_confidential::reallocate([token_account, payer, system_program, agent], &signer)?;
    token_confidential::configure_account(
        [token_account, mint, instructions_sysvar, agent],
        decryptable_zero_balance,
        maximum_pending_balance_credit_counter,
        &signer,
    )
}

#[cfg(test)]
pub(crate) mod tests {
    use crate::discriminator::instruction;
    use crate::error::PolicyError;
    use crate::instructions::confidential_account::test_support::*;
    use crate::instructions::test_fixtures::*;
    use crate::runtime::input::test_support::TestAccount;
    use crate::runtime::{INSTRUCTIONS_SYSVAR_ID, TOKEN_2022_PROGRAM_ID};

    /// The data of a valid configuration (the table of shared refusals in `confidential_account`
    /// starts from it and from [`accounts`]).
    pub(crate) fn data() -> Vec<u8> {
        [
            &instruction::AGENT_CONFIDENTIAL_CONFIGURE[..],
            &[0x5A; 36],
            &65_536u64.to_le_bytes(),
        ]
        .concat()
    }

    /// The accounts of a valid configuration.
    pub(crate) fn accounts() -> Vec<TestAccount> {
        agent_token_call([
            token(MINT, mint_data(6)),
            signer(writable(wallet(PAYER))),
            program_account(INSTRUCTIONS_SYSVAR_ID),
            program_account(TOKEN_2022_PROGRAM_ID),
            program_account(SYSTEM),
        ])
    }

    #[test]
    fn reallocates_then_configures_signed_by_the_agent() {
        // When the agent signer (or the owner) configures the agent's account
        for cpis in cpis_by_each_authority(accounts, &data()) {
            // Then Token-2022 reallocates for ConfidentialTransferAccount, the payer paying
            let [reallocate, configure] = &cpis[..] else {
                panic!("expected two CPIs")
            };
            assert_eq!(reallocate.program_id, TOKEN_2022_PROGRAM_ID);
            assert_eq!(reallocate.data, vec![29, 5, 0]);
            assert_eq!(
                reallocate.accounts,
                then_the_agent(&[(SOURCE, W), (PAYER, WS), (SYSTEM, R)])
            );
            // And configures it, the proof in the next instruction
            let expected = [&[27, 2][..], &[0x5A; 36], &65_536u64.to_le_bytes(), &[1]].concat();
            assert_eq!(configure.program_id, TOKEN_2022_PROGRAM_ID);
            assert_eq!(configure.data, expected);
            assert_eq!(
                configure.accounts,
                then_the_agent(&[(SOURCE, W), (MINT, R), (INSTRUCTIONS_SYSVAR_ID, R)])
            );
        }
    }

    #[test]
    fn the_payer_signs_and_the_fixed_addresses_are_checked() {
        refuses_each(
            || Call::new(&data(), accounts()),
            &[
                (4, |p| p.is_signer = false, PolicyError::MissingSigner),
                (4, |p| p.is_writable = false, PolicyError::AccountNotWritable),
                (5, |s| s.key = [0x66; 32], PolicyError::WrongProgram),
                (7, |s| s.key = [0x66; 32], PolicyError::WrongProgram),
            ],
        );
    }
}

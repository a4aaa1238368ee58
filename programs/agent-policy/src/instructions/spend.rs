//! The part of a spend `agent_transfer` and `pending_approve` share: checking the token side of
//! the transfer, the asset and recipient rules, and the `TransferChecked` CPI signed by the agent
//! PDA. Not an instruction.
//!
//! Token side (every failure `WrongTokenAccount` unless noted):
//! - `token_program` is Token-2022 (`WrongProgram`);
//! - `mint` is an initialized Token-2022 mint (its decimals go into `TransferChecked`);
//! - `source` (writable, else `AccountNotWritable`) is an initialized, unfrozen Token-2022
//!   account of `mint` owned by the agent PDA;
//! - `destination` (writable) is an initialized, unfrozen Token-2022 account of `mint`;
//! - `recipient_handle`, when passed (not the program id), is a `Handle` of this program
//!   (`WrongAccountOwner` / `WrongAccountData`) whose wallet owns `destination`.

use crate::error::PolicyError;
use crate::event::TransferExecuted;
use crate::instructions::{agent_checks, agent_signer};
use crate::rules::recipients::{self, Recipient};
use crate::runtime::account::AccountView;
use crate::runtime::cpi::Signer;
use crate::runtime::{keys_eq, Pubkey, TOKEN_2022_PROGRAM_ID};
use crate::state::agent::Agent;
use crate::state::handle::Handle;
use crate::state::policy::Policy;
use crate::state::{load, load_mut};
use crate::token;

/// The accounts of one spend, in no particular instruction's order (borrowed from the
/// instruction's account list, so what the checks prove borrows from it too).
pub struct SpendAccounts<'a> {
    pub agent: &'a AccountView,
    pub source: &'a AccountView,
    pub mint: &'a AccountView,
    pub destination: &'a AccountView,
    /// The optional `Handle` slot as passed: the program id means "none" (see [`optional`]),
    /// resolved where it is read, in [`check_accounts`].
    pub recipient_handle: &'a AccountView,
    pub token_program: &'a AccountView,
}

impl<'a> SpendAccounts<'a> {
    /// From the six in the order every spending instruction lists them (other accounts between).
    #[inline(always)]
    pub fn new([agent, source, mint, destination, recipient_handle, token_program]: [&'a AccountView; 6]) -> Self {
        Self {
            agent,
            source,
            mint,
            destination,
            recipient_handle,
            token_program,
        }
    }
}

/// What the checks proved, borrowed from the accounts.
pub struct CheckedSpend<'a> {
    pub decimals: u8,
    pub destination_owner: &'a Pubkey,
    pub recipient_handle: Option<&'a [u8]>,
}

/// Anchor's optional-account convention: the program id in an optional slot means "none".
#[inline]
pub fn optional<'a>(account: &'a AccountView, program_id: &Pubkey) -> Option<&'a AccountView> {
    if keys_eq(account.key(), program_id) {
        None
    } else {
        Some(account)
    }
}

/// Checks the token side of the spend (see the module doc).
#[inline]
pub fn check_accounts<'a>(accounts: &SpendAccounts<'a>, program_id: &Pubkey) -> Result<CheckedSpend<'a>, PolicyError> {
    if !keys_eq(accounts.token_program.key(), &TOKEN_2022_PROGRAM_ID) {
        return Err(PolicyError::WrongProgram);
    }
    if !accounts.source.is_writable() || !accounts.destination.is_writable() {
        return Err(PolicyError::AccountNotWritable);
    }
    let decimals = token::mint_decimals(accounts.mint)?;
    let mint = accounts.mint.key();
    let source = token::token_account(accounts.source)?;
    if !keys_eq(source.mint(), mint) || !keys_eq(source.owner(), accounts.agent.key()) {
        return Err(PolicyError::WrongTokenAccount);
    }
    let destination = token::token_account(accounts.destination)?;
    if !keys_eq(destination.mint(), mint) {
        return Err(PolicyError::WrongTokenAccount);
    }
    let destination_owner = destination.owner();
    let recipient_handle = match optional(accounts.recipient_handle, program_id) {
        None => None,
        Some(account) => {
            let handle = load::<Handle>(account, program_id)?;
            if !keys_eq(&handle.wallet, destination_owner) {
                return Err(PolicyError::WrongTokenAccount);
            }
            Some(handle.handle())
        }
    };
    Ok(CheckedSpend {
        decimals,
        destination_owner,
        recipient_handle,
    })
}

/// The agent and policy of a spend by the agent signer, loaded and checked.
pub struct Spender<'a> {
    pub agent_state: &'a mut Agent,
    pub policy_state: &'a mut Policy,
}

/// What both agent transfers check first, in this order: agent and policy writable, this
/// program's, of their type; the agent signer's checks (`agent_checks::check_spender`: signer,
/// active, policy link, no open confidential hold). The token side ([`check_accounts`]) comes
/// next. Kept apart from it: building the `SpendAccounts` after these loads is measured 21 CU
/// cheaper on `agent_transfer`'s path.
#[inline(always)]
pub fn load_spender<'a>(
    agent_signer: &AccountView,
    agent: &'a AccountView,
    policy: &'a AccountView,
    program_id: &Pubkey,
) -> Result<Spender<'a>, PolicyError> {
    let agent_state = load_mut::<Agent>(agent, program_id)?;
    let policy_state = load_mut::<Policy>(policy, program_id)?;
    agent_checks::check_spender(agent_signer, agent.key(), agent_state, policy_state)?;
    Ok(Spender {
        agent_state,
        policy_state,
    })
}

/// The asset rule, then the recipient rule, against the policy in force.
#[inline]
pub fn check_asset_and_recipient(
    policy: &Policy,
    accounts: &SpendAccounts,
    checked: &CheckedSpend,
) -> Result<(), PolicyError> {
    policy.check_mint(accounts.mint.key())?;
    recipients::check(
        policy.recipient_patterns(),
        &Recipient {
            handle: checked.recipient_handle,
            destination: accounts.destination.key(),
            destination_owner: checked.destination_owner,
        },
    )
}

/// Moves `amount` from the agent's source to the destination: Token-2022 `TransferChecked`
/// signed by the agent PDA with its stored seeds (see `agent_signer`).
#[inline]
pub fn execute(accounts: &SpendAccounts, agent: &Agent, amount: u64, decimals: u8) -> Result<(), PolicyError> {
    let seeds = agent_signer::seeds(agent);
    token::transfer_checked(
        [accounts.source, accounts.mint, accounts.destination, accounts.agent],
        amount,
        decimals,
        &Signer::new(&seeds),
    )
}

/// The `TransferExecuted` (or `ConfidentialTransferExecuted`) fields of this spend.
#[inline(always)]
pub fn executed<'a>(accounts: &SpendAccounts<'a>, transfer_id: &'a [u8; 16], from_hold: bool) -> TransferExecuted<'a> {
    TransferExecuted {
        agent: accounts.agent.key(),
        transfer_id,
        source: accounts.source.key(),
        destination: accounts.destination.key(),
        mint: accounts.mint.key(),
        from_hold,
    }
}

//! `handle_register` — the config's registrar records a personal or business handle and the wallet
//! it resolves to, at PDA `["handle", sha256(handle)]`. Agent handles are not registered here:
//! `agent_create` makes them, so an agent's name always resolves to its own PDA.
//!
//! Data: discriminator `sha256("global:handle_register")[..8]`, `handle: string` (u32 LE length +
//! normalised bytes, 1-32), `kind: u8` (0 personal, 1 business), `wallet: [u8; 32]`.
//!
//! Accounts:
//! 0. `config`          `Config` of this program
//! 1. `registrar`       signer — must be `config.registrar`
//! 2. `payer`           signer, writable — pays the handle account's rent
//! 3. `handle`          writable — PDA `["handle", sha256(handle)]`, must not exist yet
//! 4. `system_program`  `11111111111111111111111111111111`
//!
//! Errors: `NotRegistrar`, `MissingSigner`, `AccountNotWritable`, `HandleKindNotAllowed` (kind 2
//! or unknown), `InvalidHandle`, `WrongProgram`, `WrongPda`, `AccountAlreadyInitialized` (the
//! handle is taken).
//!
//! Emits `HandleRegistered { handle, wallet, kind }`.

use crate::borsh::read_args;
use crate::discriminator::account::CONFIG;
use crate::error::{PolicyError, ProgramResult};
use crate::event;
use crate::rules::handle::is_account_handle;
use crate::runtime::account::AccountView;
use crate::runtime::input::AccountList;
use crate::runtime::system::create_program_account;
use crate::runtime::{hash, keys_eq, Pubkey, SYSTEM_PROGRAM_ID};
use crate::state::config::{self, ConfigView};
use crate::state::handle::{self, Handle, NewHandle, HANDLE_SEED, KIND_BUSINESS, KIND_PERSONAL};
use crate::state::{check_account, find_free_pda, init};

struct Args<'a> {
    handle: &'a [u8],
    kind: u8,
    wallet: &'a Pubkey,
}

fn parse(data: &[u8]) -> Result<Args<'_>, PolicyError> {
    read_args(data, |reader| {
        Ok(Args {
            handle: reader.string()?,
            kind: reader.u8()?,
            wallet: reader.pubkey()?,
        })
    })
}

/// The accounts of one registration, checked: the handle PDA is free.
struct HandleRegisterAccounts<'a> {
    payer: &'a AccountView,
    handle: &'a AccountView,
    system_program: &'a AccountView,
    /// sha256 of the handle, seed of its PDA.
    handle_hash: [u8; 32],
    bump: u8,
}

impl<'a> HandleRegisterAccounts<'a> {
    /// In order: `NotEnoughAccounts`; the config (this program's); the registrar's key
    /// (`NotRegistrar`); signers; writability; the handle's kind and grammar; the System program;
    /// the handle PDA (`WrongPda`), not yet created.
    fn unpack(list: &'a AccountList, program_id: &Pubkey, args: &Args) -> Result<Self, PolicyError> {
        let [config, registrar, payer, handle, system_program] = list.first::<5>()?;
        check_account(config, program_id, &CONFIG, config::LEN)?;
        let config = ConfigView(config.data());
        // `registrar()` is the 32-byte field, so the conversion always succeeds: a word compare.
        let registered = <&Pubkey>::try_from(config.registrar()).map_err(|_| PolicyError::NotRegistrar)?;
        if !keys_eq(registrar.key(), registered) {
            return Err(PolicyError::NotRegistrar);
        }
        if !registrar.is_signer() || !payer.is_signer() {
            return Err(PolicyError::MissingSigner);
        }
        if !payer.is_writable() || !handle.is_writable() {
            return Err(PolicyError::AccountNotWritable);
        }
        if args.kind != KIND_PERSONAL && args.kind != KIND_BUSINESS {
            return Err(PolicyError::HandleKindNotAllowed);
        }
        if !is_account_handle(args.handle) {
            return Err(PolicyError::InvalidHandle);
        }
        if !keys_eq(system_program.key(), &SYSTEM_PROGRAM_ID) {
            return Err(PolicyError::WrongProgram);
        }
        let handle_hash = hash::sha256(&[args.handle]);
        let bump = find_free_pda(handle, &[HANDLE_SEED, &handle_hash], program_id)?;
        Ok(Self {
            payer,
            handle,
            system_program,
            handle_hash,
            bump,
        })
    }
}

/// Registers one account handle (see the module doc for data, accounts and checks).
pub fn process(program_id: &Pubkey, list: &AccountList, data: &[u8]) -> ProgramResult {
    let args = parse(data)?;
    let accounts = HandleRegisterAccounts::unpack(list, program_id, &args)?;
    let bump = accounts.bump;
    create_program_account(
        [accounts.payer, accounts.handle, accounts.system_program],
        &[HANDLE_SEED, &accounts.handle_hash, &[bump]],
        handle::LEN,
        program_id,
    )?;
    init::<Handle>(accounts.handle).write_new(&NewHandle {
        wallet: args.wallet,
        kind: args.kind,
        bump,
        handle: args.handle,
    });
    event::handle_registered(args.handle, args.wallet, args.kind);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::instructions::test_fixtures::*;
    use crate::runtime::input::test_support::TestAccount;

    const REGISTRAR: Pubkey = [14; 32];

    fn data(handle: &[u8], kind: u8) -> Vec<u8> {
        let mut data = crate::discriminator::instruction::HANDLE_REGISTER.to_vec();
        data.extend_from_slice(&(handle.len() as u32).to_le_bytes());
        data.extend_from_slice(handle);
        data.push(kind);
        data.extend_from_slice(&OWNER);
        data
    }

    fn accounts(registrar: Pubkey) -> Vec<TestAccount> {
        let mut config = vec![0u8; config::LEN];
        config::write_new(&mut config, &[15; 32], &REGISTRAR, 255);
        vec![
            account([16; 32], PROGRAM, config),
            signer(wallet(registrar)),
            signer(writable(wallet(PAYER))),
            writable(wallet(HANDLE)),
            program_account(SYSTEM),
        ]
    }

    #[test]
    fn only_the_registrar_registers_well_formed_account_handles() {
        Call::new(&data(b"acme", 1), accounts(PAYER)).refused(PolicyError::NotRegistrar);
        let mut truncated = data(b"acme", 0);
        truncated.pop();
        let refusals = [
            (data(b"acme", 2), PolicyError::HandleKindNotAllowed),
            (data(b"acme", 3), PolicyError::HandleKindNotAllowed),
            (data(b"Acme", 0), PolicyError::InvalidHandle),
            (data(b"acme/bot", 0), PolicyError::InvalidHandle),
            (data(&[b'a'; 33], 0), PolicyError::InvalidHandle),
            (truncated, PolicyError::InvalidInstructionData),
        ];
        for (data, error) in refusals {
            Call::new(&data, accounts(REGISTRAR)).refused(error);
        }
        refuses_each(
            || Call::new(&data(b"acme", 0), accounts(REGISTRAR)),
            &[(0, |config| config.owner = [0x99; 32], PolicyError::WrongAccountOwner)],
        );
    }
}

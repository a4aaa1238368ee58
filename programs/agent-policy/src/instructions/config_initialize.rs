//! `config_initialize` — creates the program's config PDA. Only the program's upgrade authority may
//! call it, so nobody can front-run a fresh deployment and make themselves admin.
//!
//! Data (40 bytes): discriminator `sha256("global:config_initialize")[..8]`, `registrar: [u8; 32]`.
//!
//! Accounts:
//! 0. `config`         writable — PDA `["config"]`, must not exist yet (lamports alone are fine)
//! 1. `admin`          signer, writable — pays rent; must be the upgrade authority
//! 2. `program_data`   read-only — the upgradeable loader's ProgramData account of this program
//! 3. `system_program` read-only — `11111111111111111111111111111111`
//!
//! Emits `ConfigInitialized { admin, registrar }`.

use crate::error::{PolicyError, ProgramResult};
use crate::event;
use crate::runtime::account::AccountView;
use crate::runtime::input::AccountList;
use crate::runtime::system::create_program_account;
use crate::runtime::{keys_eq, pda, Pubkey, BPF_LOADER_UPGRADEABLE_ID, SYSTEM_PROGRAM_ID};
use crate::state::config::{self, CONFIG_SEED};
use crate::state::find_free_pda;

pub const DATA_LEN: usize = 40;

/// The accounts of the one configuration, checked: the config PDA is free and the admin is the
/// program's upgrade authority.
struct ConfigInitializeAccounts<'a> {
    config: &'a AccountView,
    admin: &'a AccountView,
    system_program: &'a AccountView,
    /// The config PDA's bump.
    bump: u8,
}

impl<'a> ConfigInitializeAccounts<'a> {
    /// In order: `NotEnoughAccounts`; the admin signs; admin and config writable; the System
    /// program; the config PDA (`WrongPda`), not yet created; the ProgramData account
    /// (`WrongAccountOwner`, `WrongPda`) and its upgrade authority (`NotUpgradeAuthority`).
    fn unpack(list: &'a AccountList, program_id: &Pubkey) -> Result<Self, PolicyError> {
        let [config, admin, program_data, system_program] = list.first::<4>()?;
        if !admin.is_signer() {
            return Err(PolicyError::MissingSigner);
        }
        if !admin.is_writable() || !config.is_writable() {
            return Err(PolicyError::AccountNotWritable);
        }
        if !keys_eq(system_program.key(), &SYSTEM_PROGRAM_ID) {
            return Err(PolicyError::WrongProgram);
        }
        let bump = find_free_pda(config, &[CONFIG_SEED], program_id)?;
        if !keys_eq(program_data.owner(), &BPF_LOADER_UPGRADEABLE_ID) {
            return Err(PolicyError::WrongAccountOwner);
        }
        let (expected_program_data, _) = pda::find_program_address(&[program_id], &BPF_LOADER_UPGRADEABLE_ID)?;
        if !keys_eq(program_data.key(), &expected_program_data) {
            return Err(PolicyError::WrongPda);
        }
        match upgrade_authority(program_data.data()) {
            // The authority is a 32-byte field: a word compare.
            Some(authority) if <&Pubkey>::try_from(authority).is_ok_and(|a| keys_eq(a, admin.key())) => Ok(Self {
                config,
                admin,
                system_program,
                bump,
            }),
            _ => Err(PolicyError::NotUpgradeAuthority),
        }
    }
}

/// The upgrade authority recorded in a ProgramData account: `u32` tag 3, `u64` slot,
/// `Option<Pubkey>` (1 byte + 32).
pub fn upgrade_authority(program_data: &[u8]) -> Option<&[u8]> {
    const PROGRAM_DATA_TAG: [u8; 4] = [3, 0, 0, 0];
    if program_data.len() < 45 || program_data[..4] != PROGRAM_DATA_TAG || program_data[12] != 1 {
        return None;
    }
    Some(&program_data[13..45])
}

/// Creates the config (see the module doc for data, accounts and checks).
pub fn process(program_id: &Pubkey, list: &AccountList, data: &[u8]) -> ProgramResult {
    if data.len() < DATA_LEN {
        return Err(PolicyError::InvalidInstructionData);
    }
    let mut registrar = [0u8; 32];
    registrar.copy_from_slice(&data[8..40]);
    let accounts = ConfigInitializeAccounts::unpack(list, program_id)?;
    let bump = accounts.bump;
    create_program_account(
        [accounts.admin, accounts.config, accounts.system_program],
        &[CONFIG_SEED, &[bump]],
        config::LEN,
        program_id,
    )?;
    config::write_new(accounts.config.data_mut(), accounts.admin.key(), &registrar, bump);
    event::config_initialized(accounts.admin.key(), &registrar);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_upgrade_authority_of_a_program_data_account() {
        let mut data = [0u8; 45];
        data[0] = 3;
        data[12] = 1;
        data[13..45].copy_from_slice(&[7; 32]);
        assert_eq!(upgrade_authority(&data), Some(&[7u8; 32][..]));
    }

    #[test]
    fn an_immutable_program_or_another_account_kind_has_no_authority() {
        let mut immutable = [0u8; 45];
        immutable[0] = 3;
        assert_eq!(upgrade_authority(&immutable), None);
        let mut buffer_account = [0u8; 45];
        buffer_account[0] = 1;
        buffer_account[12] = 1;
        assert_eq!(upgrade_authority(&buffer_account), None);
        assert_eq!(upgrade_authority(&[3, 0, 0, 0]), None);
    }
}

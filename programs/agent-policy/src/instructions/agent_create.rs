//! `agent_create` — the owner of a registered account handle creates an agent under it: the
//! `Agent` PDA (the agent's address, owner of its token accounts), its `Policy`, and the agent's
//! own `Handle` (`owner handle/name`, kind agent, wallet = the agent PDA) so it can be paid and
//! matched by name like anyone else.
//!
//! Data: discriminator `sha256("global:agent_create")[..8]`, `name: string` (1-32 bytes of
//! `[a-z0-9_-]`), `agent_signer: [u8; 32]`, `policy: PolicyArgs` (Borsh, see `policy_args`).
//!
//! Accounts:
//! 0. `owner`           signer — the agent's owner: approves holds and edits the policy
//! 1. `owner_handle`    `Handle` of this program (personal or business) whose wallet is `owner`
//! 2. `agent`           writable — PDA `["agent", sha256("<owner handle>/<name>")]`, must not exist
//! 3. `policy`          writable — PDA `["policy", agent]`, must not exist
//! 4. `agent_handle`    writable — PDA `["handle", sha256("<owner handle>/<name>")]`, must not exist
//! 5. `payer`           signer, writable — pays the three accounts' rent
//! 6. `system_program`  `11111111111111111111111111111111`
//!
//! Checks, in order: the arguments (`policy_args` errors, then `Policy::validate`), `MissingSigner`,
//! `AccountNotWritable`, the owner handle (`WrongAccountOwner`/`WrongAccountData`;
//! `HandleKindNotAllowed` for an agent's handle; `NotAgentOwner` when its wallet is not `owner`),
//! `AgentSignerIsOwner`, `InvalidHandle` (name, or the whole agent handle over 64 bytes),
//! `WrongProgram`, `WrongPda`, `AccountAlreadyInitialized`.
//!
//! Emits `AgentCreated { agent, owner, agent_signer, policy, handle }`.

use crate::borsh::read_args;
use crate::error::{PolicyError, ProgramResult};
use crate::event;
use crate::instructions::policy_args::read_policy_args;
use crate::rules::handle::{join_agent_handle, MAX_AGENT_HANDLE_LEN};
use crate::rules::limits::day_index;
use crate::runtime::account::AccountView;
use crate::runtime::input::AccountList;
use crate::runtime::system::create_program_account;
use crate::runtime::{clock, hash, keys_eq, pda, Pubkey, SYSTEM_PROGRAM_ID};
use crate::state::agent::{self, Agent, NewAgent, AGENT_SEED};
use crate::state::handle::{self, Handle, NewHandle, HANDLE_SEED, KIND_AGENT};
use crate::state::policy::{self, Policy, POLICY_SEED};
use crate::state::{init, is_uninitialized, load};

/// The agent handle, its hash, and the three PDAs' bumps, once everything checked out.
struct Derived {
    handle: [u8; MAX_AGENT_HANDLE_LEN],
    handle_len: usize,
    handle_hash: [u8; 32],
    agent_bump: u8,
    policy_bump: u8,
    handle_bump: u8,
}

/// The arguments besides the policy.
struct Args<'a> {
    name: &'a [u8],
    agent_signer: &'a Pubkey,
}

/// The accounts of one agent creation, checked: the three new accounts are free PDAs.
struct AgentCreateAccounts<'a> {
    owner: &'a AccountView,
    agent: &'a AccountView,
    policy: &'a AccountView,
    agent_handle: &'a AccountView,
    payer: &'a AccountView,
    system_program: &'a AccountView,
    derived: Derived,
}

impl<'a> AgentCreateAccounts<'a> {
    /// In order: `NotEnoughAccounts`; signers; writability; the owner's handle (this program's,
    /// not an agent's, its wallet the owner); `AgentSignerIsOwner`; the agent handle
    /// (`InvalidHandle`); the System program; the three PDAs (found, so verified here: `WrongPda`);
    /// none created yet (`AccountAlreadyInitialized`).
    fn unpack(list: &'a AccountList, program_id: &Pubkey, args: &Args) -> Result<Self, PolicyError> {
        let [owner, owner_handle, agent, policy, agent_handle, payer, system_program] = list.first::<7>()?;
        let Args { name, agent_signer } = *args;
        if !owner.is_signer() || !payer.is_signer() {
            return Err(PolicyError::MissingSigner);
        }
        if !payer.is_writable() || !agent.is_writable() || !policy.is_writable() || !agent_handle.is_writable() {
            return Err(PolicyError::AccountNotWritable);
        }
        let owner_handle = load::<Handle>(owner_handle, program_id)?;
        if owner_handle.kind == KIND_AGENT {
            return Err(PolicyError::HandleKindNotAllowed);
        }
        if !keys_eq(&owner_handle.wallet, owner.key()) {
            return Err(PolicyError::NotAgentOwner);
        }
        if keys_eq(agent_signer, owner.key()) {
            return Err(PolicyError::AgentSignerIsOwner);
        }
        let mut handle = [0u8; MAX_AGENT_HANDLE_LEN];
        let handle_len = join_agent_handle(owner_handle.handle(), name, &mut handle)?;
        if !keys_eq(system_program.key(), &SYSTEM_PROGRAM_ID) {
            return Err(PolicyError::WrongProgram);
        }

        let handle_hash = hash::sha256(&[&handle[..handle_len]]);
        let (agent_key, agent_bump) = pda::find_program_address(&[AGENT_SEED, &handle_hash], program_id)?;
        let (policy_key, policy_bump) = pda::find_program_address(&[POLICY_SEED, &agent_key], program_id)?;
        let (handle_key, handle_bump) = pda::find_program_address(&[HANDLE_SEED, &handle_hash], program_id)?;
        if !keys_eq(agent.key(), &agent_key)
            || !keys_eq(policy.key(), &policy_key)
            || !keys_eq(agent_handle.key(), &handle_key)
        {
            return Err(PolicyError::WrongPda);
        }
        if !is_uninitialized(agent) || !is_uninitialized(policy) || !is_uninitialized(agent_handle) {
            return Err(PolicyError::AccountAlreadyInitialized);
        }
        Ok(Self {
            owner,
            agent,
            policy,
            agent_handle,
            payer,
            system_program,
            derived: Derived {
                handle,
                handle_len,
                handle_hash,
                agent_bump,
                policy_bump,
                handle_bump,
            },
        })
    }
}

/// Creates the agent, its policy and its handle (see the module doc for data, accounts and checks).
pub fn process(program_id: &Pubkey, list: &AccountList, data: &[u8]) -> ProgramResult {
    // Arguments first, the policy into a scratch copy: validated before anything is created.
    // All-zero bytes are a valid `Policy` (byte arrays only).
    let mut settings: Policy = unsafe { core::mem::zeroed() };
    let args = read_args(data, |reader| {
        let args = Args {
            name: reader.string()?,
            agent_signer: reader.pubkey()?,
        };
        read_policy_args(reader, &mut settings)?;
        Ok(args)
    })?;

    settings.validate()?;
    let accounts = AgentCreateAccounts::unpack(list, program_id, &args)?;
    let derived = &accounts.derived;
    let handle = &derived.handle[..derived.handle_len];
    let now = clock::unix_timestamp();

    let funding = |account| [accounts.payer, account, accounts.system_program];
    let agent_seeds: [&[u8]; 3] = [AGENT_SEED, &derived.handle_hash, &[derived.agent_bump]];
    create_program_account(funding(accounts.agent), &agent_seeds, agent::LEN, program_id)?;
    let policy_seeds: [&[u8]; 3] = [POLICY_SEED, accounts.agent.key(), &[derived.policy_bump]];
    create_program_account(funding(accounts.policy), &policy_seeds, policy::LEN, program_id)?;
    let handle_seeds: [&[u8]; 3] = [HANDLE_SEED, &derived.handle_hash, &[derived.handle_bump]];
    create_program_account(funding(accounts.agent_handle), &handle_seeds, handle::LEN, program_id)?;

    init::<Agent>(accounts.agent).write_new(&NewAgent {
        owner: accounts.owner.key(),
        agent_signer: args.agent_signer,
        handle_hash: &derived.handle_hash,
        bump: derived.agent_bump,
        policy_bump: derived.policy_bump,
        handle,
        created_at: now,
    });
    let policy = init::<Policy>(accounts.policy);
    settings.discriminator = policy.discriminator;
    settings.agent = *accounts.agent.key();
    settings.version.set(1);
    settings.bump = derived.policy_bump;
    settings.day_index.set(day_index(now));
    settings.updated_at.set(now);
    *policy = settings;
    init::<Handle>(accounts.agent_handle).write_new(&NewHandle {
        wallet: accounts.agent.key(),
        kind: KIND_AGENT,
        bump: derived.handle_bump,
        handle,
    });

    event::agent_created(&event::AgentCreated {
        agent: accounts.agent.key(),
        owner: accounts.owner.key(),
        agent_signer: args.agent_signer,
        policy: accounts.policy.key(),
        handle,
    });
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::discriminator::instruction;
    use crate::instructions::policy_args::tests::encode_policy_args;
    use crate::instructions::test_fixtures::*;
    use crate::runtime::input::test_support::TestAccount;

    fn data(name: &[u8], agent_signer: Pubkey, start_minute: u16) -> Vec<u8> {
        let mut data = instruction::AGENT_CREATE.to_vec();
        data.extend_from_slice(&(name.len() as u32).to_le_bytes());
        data.extend_from_slice(name);
        data.extend_from_slice(&agent_signer);
        data.extend_from_slice(&encode_policy_args(
            (100, 250, 50),
            (start_minute, 0),
            3600,
            &[MINT],
            &[],
        ));
        data
    }

    fn accounts(owner_handle: &[u8], handle_wallet: Pubkey, kind: u8) -> Vec<TestAccount> {
        vec![
            signer(wallet(OWNER)),
            account(HANDLE, PROGRAM, handle_data(owner_handle, handle_wallet, kind)),
            writable(wallet(AGENT)),
            writable(wallet(POLICY)),
            writable(wallet([13; 32])),
            signer(writable(wallet(PAYER))),
            program_account(SYSTEM),
        ]
    }

    #[test]
    fn refuses_before_deriving_anything() {
        let ok = || accounts(b"acme", OWNER, 1);
        assert_eq!(
            run(ok(), &data(b"bot", SIGNER, 1440), NOON).result,
            Err(PolicyError::InvalidActiveHours)
        );
        assert_eq!(
            run(ok(), &data(b"bot", OWNER, 0), NOON).result,
            Err(PolicyError::AgentSignerIsOwner)
        );
        assert_eq!(
            run(ok(), &data(b"Bot", SIGNER, 0), NOON).result,
            Err(PolicyError::InvalidHandle)
        );
        assert_eq!(
            run(ok(), &data(b"my.bot", SIGNER, 0), NOON).result,
            Err(PolicyError::InvalidHandle)
        );
        assert_eq!(
            run(accounts(b"acme", PAYER, 1), &data(b"bot", SIGNER, 0), NOON).result,
            Err(PolicyError::NotAgentOwner)
        );
        let agent_owner = accounts(b"acme/bot", OWNER, 2);
        assert_eq!(
            run(agent_owner, &data(b"sub", SIGNER, 0), NOON).result,
            Err(PolicyError::HandleKindNotAllowed)
        );
        // 32 + 1 + 32 bytes: both parts valid, the agent handle too long
        let long_owner = [b'a'; 32];
        let long = run(accounts(&long_owner, OWNER, 0), &data(&[b'b'; 32], SIGNER, 0), NOON);
        assert_eq!(long.result, Err(PolicyError::InvalidHandle));
        let mut unsigned = ok();
        unsigned[0].is_signer = false;
        assert_eq!(
            run(unsigned, &data(b"bot", SIGNER, 0), NOON).result,
            Err(PolicyError::MissingSigner)
        );
    }
}

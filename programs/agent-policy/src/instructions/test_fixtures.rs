//! Host fixtures for instruction tests: accounts laid out byte for byte as the loader serializes
//! them, a runner that dispatches through `processor::process`, and a recorded clock, CPIs and
//! events (see `runtime::syscalls::record`).

use crate::discriminator::account as disc;
use crate::error::{PolicyError, ProgramResult};
use crate::processor;
use crate::rules::limits::day_index;
use crate::runtime::account::AccountView;
use crate::runtime::input::parse;
use crate::runtime::input::test_support::{serialize, Entry, TestAccount};
use crate::runtime::syscalls::record;
use crate::runtime::{Pubkey, TOKEN_2022_PROGRAM_ID};
use crate::state::{agent, handle, pending, policy};

pub const PROGRAM: Pubkey = [0xAA; 32];
pub const SIGNER: Pubkey = [1; 32];
pub const OWNER: Pubkey = [2; 32];
pub const AGENT: Pubkey = [3; 32];
pub const POLICY: Pubkey = [4; 32];
pub const SOURCE: Pubkey = [5; 32];
pub const MINT: Pubkey = [6; 32];
pub const DESTINATION: Pubkey = [7; 32];
pub const DESTINATION_OWNER: Pubkey = [8; 32];
pub const PENDING: Pubkey = [9; 32];
pub const PAYER: Pubkey = [10; 32];
pub const HANDLE: Pubkey = [11; 32];
pub const HANDLE_HASH: [u8; 32] = [12; 32];
pub const AGENT_BUMP: u8 = 254;
pub const SYSTEM: Pubkey = [0; 32];

/// 2024-01-02T12:00:00Z
pub const NOON: i64 = 1_704_153_600 + 12 * 3600;

pub fn account(key: Pubkey, owner: Pubkey, data: Vec<u8>) -> TestAccount {
    TestAccount {
        key,
        owner,
        lamports: 1_000_000,
        data,
        is_signer: false,
        is_writable: false,
    }
}

pub fn writable(mut account: TestAccount) -> TestAccount {
    account.is_writable = true;
    account
}

pub fn signer(mut account: TestAccount) -> TestAccount {
    account.is_signer = true;
    account
}

pub fn wallet(key: Pubkey) -> TestAccount {
    account(key, SYSTEM, vec![])
}

pub fn agent_data() -> Vec<u8> {
    let mut data = vec![0u8; agent::LEN];
    data[..8].copy_from_slice(&disc::AGENT);
    data[8..40].copy_from_slice(&OWNER);
    data[40..72].copy_from_slice(&SIGNER);
    data[72..104].copy_from_slice(&HANDLE_HASH);
    data[104] = AGENT_BUMP;
    data[106] = agent::STATUS_ACTIVE;
    data[107] = 8;
    data[108..116].copy_from_slice(b"acme/bot");
    data
}

/// The agent with one open hold (`open_holds` = 1).
pub fn agent_with_one_hold() -> Vec<u8> {
    let mut data = agent_data();
    data[180..184].copy_from_slice(&1u32.to_le_bytes());
    data
}

/// per-transaction 100, daily 250, HITL 50, all day, 1 h window, mints [MINT], no patterns,
/// nothing spent today (NOON's day).
pub fn policy_data() -> Vec<u8> {
    let mut data = vec![0u8; policy::LEN];
    data[..8].copy_from_slice(&disc::POLICY);
    data[8..40].copy_from_slice(&AGENT);
    data[40..44].copy_from_slice(&1u32.to_le_bytes());
    data[48..56].copy_from_slice(&100u64.to_le_bytes());
    data[56..64].copy_from_slice(&250u64.to_le_bytes());
    data[64..72].copy_from_slice(&50u64.to_le_bytes());
    data[72..76].copy_from_slice(&3600u32.to_le_bytes());
    data[76] = 1;
    data[80..88].copy_from_slice(&day_index(NOON).to_le_bytes());
    data[104..136].copy_from_slice(&MINT);
    data
}

/// Sets the policy's recipient patterns (kind, value).
pub fn with_patterns(mut data: Vec<u8>, patterns: &[(u8, &[u8])]) -> Vec<u8> {
    data[77] = patterns.len() as u8;
    for (i, (kind, value)) in patterns.iter().enumerate() {
        let at = 232 + i * 66;
        data[at] = *kind;
        data[at + 1] = value.len() as u8;
        data[at + 2..at + 2 + value.len()].copy_from_slice(value);
    }
    data
}

pub fn token_account_data(mint: Pubkey, owner: Pubkey, amount: u64) -> Vec<u8> {
    let mut data = vec![0u8; 165];
    data[..32].copy_from_slice(&mint);
    data[32..64].copy_from_slice(&owner);
    data[64..72].copy_from_slice(&amount.to_le_bytes());
    data[108] = 1;
    data
}

pub fn mint_data(decimals: u8) -> Vec<u8> {
    let mut data = vec![0u8; 82];
    data[44] = decimals;
    data[45] = 1;
    data
}

pub fn handle_data(handle: &[u8], wallet: Pubkey, kind: u8) -> Vec<u8> {
    let mut data = vec![0u8; handle::LEN];
    data[..8].copy_from_slice(&disc::HANDLE);
    data[8..40].copy_from_slice(&wallet);
    data[40] = kind;
    data[42] = handle.len() as u8;
    data[43..43 + handle.len()].copy_from_slice(handle);
    data
}

/// A hold of `amount` from SOURCE to DESTINATION of MINT, requested at NOON, paid by PAYER.
pub fn pending_data(amount: u64) -> Vec<u8> {
    let mut data = vec![0u8; pending::LEN];
    data[..8].copy_from_slice(&disc::PENDING_TRANSACTION);
    data[8..40].copy_from_slice(&AGENT);
    data[48..80].copy_from_slice(&SOURCE);
    data[80..112].copy_from_slice(&DESTINATION);
    data[112..144].copy_from_slice(&MINT);
    data[144..152].copy_from_slice(&amount.to_le_bytes());
    data[152..160].copy_from_slice(&NOON.to_le_bytes());
    data[160..168].copy_from_slice(&(NOON + 3600).to_le_bytes());
    data[168..200].copy_from_slice(&PAYER);
    data[272..288].copy_from_slice(&[0x77; 16]);
    data
}

pub fn token(key: Pubkey, data: Vec<u8>) -> TestAccount {
    account(key, TOKEN_2022_PROGRAM_ID, data)
}

pub fn program_account(key: Pubkey) -> TestAccount {
    let mut program = account(key, [0x55; 32], vec![]);
    program.lamports = 1;
    program
}

/// One instruction call under test: its accounts, its data and the clock, changed step by step
/// from a valid call, then run.
pub struct Call {
    pub accounts: Vec<TestAccount>,
    pub data: Vec<u8>,
    pub now: i64,
    pub slot: u64,
}

impl Call {
    /// The call at NOON, slot 0.
    pub fn new(data: &[u8], accounts: Vec<TestAccount>) -> Self {
        Self {
            accounts,
            data: data.to_vec(),
            now: NOON,
            slot: 0,
        }
    }

    /// With `change` made to the account at `index`.
    pub fn with(mut self, index: usize, change: impl FnOnce(&mut TestAccount)) -> Self {
        change(&mut self.accounts[index]);
        self
    }

    /// With `change` made to the data of the account at `index`.
    pub fn with_data_of(self, index: usize, change: impl FnOnce(&mut Vec<u8>)) -> Self {
        self.with(index, |account| change(&mut account.data))
    }

    /// Run at `now`.
    pub fn at(mut self, now: i64) -> Self {
        self.now = now;
        self
    }

    /// Run with the Clock's slot at `slot`.
    pub fn at_slot(mut self, slot: u64) -> Self {
        self.slot = slot;
        self
    }

    pub fn run(self) -> Run {
        run_at_slot(self.accounts, &self.data, self.now, self.slot)
    }

    /// Refused with `error`, having invoked and emitted nothing (see [`refused`]).
    pub fn refused(self, error: PolicyError) {
        refused(&self.run(), error);
    }
}

/// One account change and the error it must cause.
pub type Refusal = (usize, fn(&mut TestAccount), PolicyError);

/// Each of `refusals`, made to a fresh `call()`, is refused with its error (see [`refused`]).
pub fn refuses_each(call: impl Fn() -> Call, refusals: &[Refusal]) {
    for (index, change, error) in refusals {
        let run = call().with(*index, change).run();
        assert_eq!(run.result, Err(*error), "account {index}");
        refused(&run, *error);
    }
}

/// (writable, signer) of an account a CPI passes.
pub const W: (bool, bool) = (true, false);
pub const R: (bool, bool) = (false, false);
pub const WS: (bool, bool) = (true, true);

/// A CPI's accounts as recorded: `accounts` with their (writable, signer) flags, then the agent
/// PDA signing (every CPI the agent's instructions make ends with it).
pub fn then_the_agent(accounts: &[(Pubkey, (bool, bool))]) -> Vec<(Pubkey, bool, bool)> {
    let mut recorded: Vec<_> = accounts
        .iter()
        .map(|(key, (writable, signer))| (*key, *writable, *signer))
        .collect();
    recorded.push((AGENT, false, true));
    recorded
}

/// The outcome of one instruction: its result, the views of its accounts (into the serialized
/// buffer, as the program left them), and what it recorded.
pub struct Run {
    pub result: ProgramResult,
    pub views: Vec<AccountView>,
    pub invocations: Vec<record::Invocation>,
    pub events: Vec<Vec<u8>>,
    _buffer: Vec<u8>,
}

impl Run {
    pub fn data(&self, index: usize) -> &[u8] {
        self.views[index].data()
    }
}

/// Serializes `accounts` and `data` as the loader does and runs the program at `now` (slot 0).
pub fn run(accounts: Vec<TestAccount>, data: &[u8], now: i64) -> Run {
    run_at_slot(accounts, data, now, 0)
}

/// [`run`] with the Clock's slot at `slot`.
pub fn run_at_slot(accounts: Vec<TestAccount>, data: &[u8], now: i64, slot: u64) -> Run {
    let entries: Vec<Entry> = accounts.into_iter().map(Entry::Account).collect();
    let mut buffer = serialize(&entries, data, &PROGRAM);
    record::reset(Some(now));
    record::set_slot(slot);
    let input = unsafe { parse(buffer.as_mut_ptr()) };
    let views = (0..input.accounts().len())
        .map(|i| input.accounts().get(i).unwrap())
        .collect();
    let result = processor::process(&input);
    Run {
        result,
        views,
        invocations: record::invocations(),
        events: record::events(),
        _buffer: buffer,
    }
}

/// `run` refused with `error`, having invoked and emitted nothing.
pub fn refused(run: &Run, error: PolicyError) {
    assert_eq!(run.result, Err(error));
    assert!(run.invocations.is_empty(), "nothing may be invoked when refused");
    assert!(run.events.is_empty(), "nothing may be emitted when refused");
}

pub fn u64_at(data: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(data[at..at + 8].try_into().unwrap())
}

pub fn i64_at(data: &[u8], at: usize) -> i64 {
    i64::from_le_bytes(data[at..at + 8].try_into().unwrap())
}

//! The part the confidential spend instructions share (`agent_confidential_transfer`,
//! `confidential_pending_approve`, and the confidential branches of `pending_reject` and
//! `pending_close_expired`): the three Token-2022 proof contexts of a transfer, the confidential
//! `Transfer` CPI, closing contexts, and releasing a confidential hold. Not an instruction.
//!
//! Token contexts (each writable, owned by the ZK ElGamal Proof program, exact size and type,
//! authority the agent PDA, else `AccountNotWritable` / `WrongProofContext`): equality (type 3),
//! ciphertext validity (type 12, `BatchedGroupedCiphertext3HandlesValidity`), range (type 7,
//! `BatchedRangeProofU128`, what Token-2022's `Transfer` takes). Token-2022 checks their contents
//! against the accounts itself; the program reads the validity context for `A` and the auditor
//! ciphertexts.

use crate::error::{PolicyError, ProgramResult};
use crate::instructions::spend::SpendAccounts;
use crate::rules::confidential_limits::Ciphertext;
use crate::runtime::account::AccountView;
use crate::runtime::cpi::{Seed, Signer};
use crate::runtime::{keys_eq, Pubkey, ZK_ELGAMAL_PROOF_PROGRAM_ID};
use crate::state::agent::{Agent, AGENT_SEED};
use crate::state::pending::ConfidentialHold;
use crate::state::policy::Policy;
use crate::token_confidential::{self, DecryptableBalance, TransferCiphertexts};
use crate::zk_context::{self, proof_type, ValidityContext};

/// The three contexts Token-2022's confidential `Transfer` reads.
pub struct TokenContexts<'a> {
    pub equality: &'a AccountView,
    pub validity: &'a AccountView,
    pub range: &'a AccountView,
}

impl TokenContexts<'_> {
    #[inline]
    pub fn all(&self) -> [AccountView; 3] {
        [*self.equality, *self.validity, *self.range]
    }

    /// Whether these are the contexts a hold pinned.
    #[inline]
    pub fn are_pinned_in(&self, hold: &ConfidentialHold) -> bool {
        keys_eq(self.equality.key(), &hold.equality_proof)
            && keys_eq(self.validity.key(), &hold.ciphertext_validity_proof)
            && keys_eq(self.range.key(), &hold.range_proof)
    }
}

/// Checks the three Token contexts (see the module doc) and returns the validity statement.
pub fn read_token_contexts<'a>(
    contexts: &TokenContexts<'a>,
    agent: &Pubkey,
) -> Result<ValidityContext<'a>, PolicyError> {
    zk_context::equality(contexts.equality, agent)?;
    let validity = zk_context::validity(contexts.validity, agent)?;
    zk_context::range(contexts.range, agent, &[proof_type::BATCHED_RANGE_PROOF_U128])?;
    Ok(validity)
}

/// `zk_elgamal_proof_program` must be the ZK ElGamal Proof program (`WrongProgram`): the CPIs
/// that close contexts need it among the instruction's accounts.
#[inline]
pub fn check_zk_program(account: &AccountView) -> ProgramResult {
    if !keys_eq(account.key(), &ZK_ELGAMAL_PROOF_PROGRAM_ID) {
        return Err(PolicyError::WrongProgram);
    }
    Ok(())
}

/// The agent PDA's seeds, copied out of the `Agent` so the account can be written while a
/// `Signer` built from them is alive.
pub struct AgentSeeds {
    handle_hash: [u8; 32],
    bump: [u8; 1],
}

impl AgentSeeds {
    #[inline]
    pub fn of(agent: &Agent) -> Self {
        Self {
            handle_hash: agent.handle_hash,
            bump: [agent.bump],
        }
    }

    #[inline]
    pub fn seeds(&self) -> [Seed; 3] {
        [
            Seed::new(AGENT_SEED),
            Seed::new(&self.handle_hash),
            Seed::new(&self.bump),
        ]
    }
}

/// `CloseContextState` of each of `contexts`, their rent to `destination`, authorised by
/// `authority` (the agent PDA, signing through `signer`). The ZK program checks the authority and
/// refuses a destination equal to the context; closing one account twice fails the instruction.
#[inline(never)]
pub fn close_all(
    contexts: &[AccountView],
    [destination, authority]: [&AccountView; 2],
    signer: &Signer,
) -> ProgramResult {
    for context in contexts {
        zk_context::close_context([context, destination, authority], signer)?;
    }
    Ok(())
}

/// Today's confidential spend `S` (none on a new day), which must be under the key of the source
/// account now spending (`ConfidentialKeyMismatch`): the program adds ciphertexts, so they must
/// be under one key.
#[inline]
pub fn spend_today<'a>(
    policy: &'a Policy,
    today: i64,
    source_pubkey: &Pubkey,
) -> Result<Option<&'a Ciphertext>, PolicyError> {
    match policy.confidential_spend_on(today) {
        None => Ok(None),
        Some((spend, key)) => {
            if !keys_eq(key, source_pubkey) {
                return Err(PolicyError::ConfidentialKeyMismatch);
            }
            Ok(Some(spend))
        }
    }
}

/// Token-2022's confidential `Transfer` from the agent's source through `contexts`, signed by the
/// agent PDA, with the auditor ciphertexts of the `validity` context.
#[inline(never)]
pub fn execute(
    spend: &SpendAccounts,
    contexts: &TokenContexts,
    validity: &ValidityContext,
    new_source_decryptable_available_balance: &DecryptableBalance,
    signer: &Signer,
) -> ProgramResult {
    token_confidential::transfer(
        [
            spend.source,
            spend.mint,
            spend.destination,
            contexts.equality,
            contexts.validity,
            contexts.range,
            spend.agent,
        ],
        &TransferCiphertexts {
            new_source_decryptable_available_balance,
            auditor_ciphertext_lo: &validity.auditor_ciphertext_lo(),
            auditor_ciphertext_hi: &validity.auditor_ciphertext_hi(),
        },
        signer,
    )
}

/// A confidential hold being rejected or closed after expiry (see `hold_close::ClosingHold`).
pub struct Release<'a> {
    pub program_id: &'a Pubkey,
    pub agent: &'a AccountView,
    pub pending: &'a AccountView,
    pub rent_receiver: &'a AccountView,
    pub agent_state: &'a mut Agent,
    /// The accounts after the instruction's own.
    pub trailing: &'a [AccountView],
}

/// For a confidential hold being rejected or closed after expiry (the caller checked
/// `confidential != 0`): the four trailing accounts (equality_proof, ciphertext_validity_proof,
/// range_proof, zk_elgamal_proof_program) are required (`NotEnoughAccounts`), the contexts must be
/// the pinned ones (`WrongPendingTransaction`) and writable (`AccountNotWritable`), the ZK program
/// its id (`WrongProgram`); each context still owned by the ZK program is closed to
/// `rent_receiver` (one already gone is skipped, so a hold can always be closed), and the agent's
/// `confidential_hold` is cleared. The caller then closes the hold itself.
#[inline(never)]
pub fn release(release: &mut Release) -> ProgramResult {
    let hold = crate::state::pending::confidential_hold_mut(release.pending, release.program_id)?;
    let [equality, validity, range, zk_program] = match release.trailing {
        [equality, validity, range, zk_program, ..] => [equality, validity, range, zk_program],
        _ => return Err(PolicyError::NotEnoughAccounts),
    };
    let contexts = TokenContexts {
        equality,
        validity,
        range,
    };
    if !contexts.are_pinned_in(hold) {
        return Err(PolicyError::WrongPendingTransaction);
    }
    check_zk_program(zk_program)?;
    let all = contexts.all();
    if all.iter().any(|context| !context.is_writable()) {
        return Err(PolicyError::AccountNotWritable);
    }
    let seeds = AgentSeeds::of(release.agent_state);
    let seeds = seeds.seeds();
    let signer = Signer::new(&seeds);
    for context in &all {
        if keys_eq(context.owner(), &ZK_ELGAMAL_PROOF_PROGRAM_ID) {
            close_all(
                core::slice::from_ref(context),
                [release.rent_receiver, release.agent],
                &signer,
            )?;
        }
    }
    if keys_eq(&release.agent_state.confidential_hold, release.pending.key()) {
        release.agent_state.clear_confidential_hold();
    }
    Ok(())
}

#[cfg(test)]
pub(crate) mod test_support {
    //! Context accounts and confidential holds for the confidential spend instructions' tests.
    use crate::discriminator::account as disc;
    use crate::instructions::test_fixtures::*;
    use crate::runtime::input::test_support::TestAccount;
    use crate::runtime::{Pubkey, ZK_ELGAMAL_PROOF_PROGRAM_ID};
    use crate::state::pending;
    use crate::zk_context::{EQUALITY_LEN, RANGE_LEN, VALIDITY_LEN};

    pub const EQUALITY: Pubkey = [0x21; 32];
    pub const VALIDITY: Pubkey = [0x22; 32];
    pub const RANGE: Pubkey = [0x23; 32];
    pub const LIMIT_TX: Pubkey = [0x24; 32];
    pub const LIMIT_DAY: Pubkey = [0x25; 32];
    pub const LIMIT_RANGE: Pubkey = [0x26; 32];
    pub const CONTEXT_RECEIVER: Pubkey = [0x27; 32];
    /// The source account's ElGamal key (the validity context's handle-0 key).
    pub const SOURCE_ELGAMAL: Pubkey = [0x28; 32];
    pub const Z_TX: [u8; 32] = [0x31; 32];
    pub const Z_DAY: [u8; 32] = [0x32; 32];

    fn context(key: Pubkey, len: usize, kind: u8, body: &[u8]) -> TestAccount {
        let mut data = vec![0u8; len];
        data[..32].copy_from_slice(&AGENT);
        data[32] = kind;
        data[33..33 + body.len()].copy_from_slice(body);
        writable(account(key, ZK_ELGAMAL_PROOF_PROGRAM_ID, data))
    }

    /// An equality context (type 3) under `pubkey` with commitment `commitment`.
    pub fn equality(key: Pubkey, pubkey: Pubkey, commitment: [u8; 32]) -> TestAccount {
        let body = [&pubkey[..], &[0x55; 64], &commitment].concat();
        context(key, EQUALITY_LEN, 3, &body)
    }

    /// The transfer's validity context (type 12): source SOURCE_ELGAMAL, then arbitrary bytes.
    pub fn validity() -> TestAccount {
        let body = [&SOURCE_ELGAMAL[..], &[0x29; 32], &[0x2a; 32], &[0x56; 256]].concat();
        context(VALIDITY, VALIDITY_LEN, 12, &body)
    }

    /// A range context of `kind` (6 U64, 7 U128) over `commitments`.
    pub fn range(key: Pubkey, kind: u8, commitments: &[[u8; 32]]) -> TestAccount {
        let mut body = commitments.concat();
        body.resize(256, 0);
        body.extend_from_slice(&[32, 32, 0, 0, 0, 0, 0, 0]);
        context(key, RANGE_LEN, kind, &body)
    }

    /// The three Token contexts, as pinned.
    pub fn token_contexts() -> [TestAccount; 3] {
        [
            equality(EQUALITY, SOURCE_ELGAMAL, [0x57; 32]),
            validity(),
            range(RANGE, 7, &[[0x58; 32], [0x59; 32], [0x5a; 32]]),
        ]
    }

    /// The three limit contexts of a consistent statement (the curve math decides the rest).
    pub fn limit_contexts() -> [TestAccount; 3] {
        [
            equality(LIMIT_TX, SOURCE_ELGAMAL, Z_TX),
            equality(LIMIT_DAY, SOURCE_ELGAMAL, Z_DAY),
            range(LIMIT_RANGE, 6, &[Z_TX, Z_DAY]),
        ]
    }

    /// A confidential hold (544 bytes) of SOURCE -> DESTINATION of MINT requested at NOON, paid by
    /// PAYER, pinning the Token contexts, proven against 100 per transaction and 250 a day.
    pub fn confidential_pending_data() -> Vec<u8> {
        let mut data = pending_data(0);
        data.resize(pending::CONFIDENTIAL_LEN, 0);
        data[202] = 1;
        data[288..320].copy_from_slice(&EQUALITY);
        data[320..352].copy_from_slice(&VALIDITY);
        data[352..384].copy_from_slice(&RANGE);
        data[384..420].copy_from_slice(&[0x61; 36]);
        data[420..456].copy_from_slice(&[0x62; 36]);
        data[456..492].copy_from_slice(&[0x63; 36]);
        data[492..500].copy_from_slice(&100u64.to_le_bytes());
        data[500..508].copy_from_slice(&250u64.to_le_bytes());
        data[508..516].copy_from_slice(&crate::rules::limits::day_index(NOON).to_le_bytes());
        assert_eq!(&data[..8], &disc::PENDING_TRANSACTION);
        data
    }

    /// The agent with one open hold, the confidential one at PENDING.
    pub fn agent_holding() -> Vec<u8> {
        let mut data = agent_with_one_hold();
        data[192..224].copy_from_slice(&PENDING);
        data
    }

    /// The ZK program as an instruction account.
    pub fn zk_program() -> TestAccount {
        program_account(ZK_ELGAMAL_PROOF_PROGRAM_ID)
    }
}

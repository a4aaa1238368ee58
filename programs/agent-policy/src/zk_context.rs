//! Context-state accounts of the ZK ElGamal Proof program
//! (`ZkE1Gama1Proof11111111111111111111111111111`): typed, checked readers of the proofs'
//! public statements, and `CloseContextState` signed by the agent PDA.
//!
//! A context-state account holds what a proof instruction verified, written by the ZK program:
//!
//! ```text
//! offset size field
//!      0   32 context_state_authority   the only key that may close it
//!     32    1 proof_type                 the verified proof's type
//!     33    .. context                    the proof's public statement (below)
//! ```
//!
//! | context | LEN | proof type | context after the header |
//! |---|---|---|---|
//! | ciphertext-commitment equality | 161 | 3 | pubkey 32, ciphertext 64, commitment 32 |
//! | batched range U64 / U128 | 297 | 6 / 7 | commitments 8 x 32, bit lengths 8 x u8 |
//! | batched grouped 3-handles validity | 385 | 12 | pubkeys 3 x 32, lo (commitment 32, handles 3 x 32), hi (same) |
//!
//! Every reader checks, before any field is read: writable (`AccountNotWritable`: the program
//! closes what it reads), then owner, exact length, proof type and authority (`WrongProofContext`).
//! A context exists only if the ZK program verified its proof, so its bytes are the statement of
//! a valid proof; closing it after use makes it single use.

use crate::error::PolicyError;
use crate::runtime::account::AccountView;
use crate::runtime::cpi::{invoke_signed_by, CpiAccount, Signer};
use crate::runtime::{keys_eq, Pubkey, ZK_ELGAMAL_PROOF_PROGRAM_ID};

/// `context_state_authority` and `proof_type`.
pub const HEADER_LEN: usize = 33;
const PROOF_TYPE_OFFSET: usize = 32;

/// Proof types (`zk_elgamal_proof_program::proof_data::ProofType`) the program reads.
pub mod proof_type {
    pub const CIPHERTEXT_COMMITMENT_EQUALITY: u8 = 3;
    pub const BATCHED_RANGE_PROOF_U64: u8 = 6;
    pub const BATCHED_RANGE_PROOF_U128: u8 = 7;
    pub const BATCHED_GROUPED_CIPHERTEXT_3_HANDLES_VALIDITY: u8 = 12;
}

pub const EQUALITY_LEN: usize = HEADER_LEN + 128;
pub const RANGE_LEN: usize = HEADER_LEN + 264;
pub const VALIDITY_LEN: usize = HEADER_LEN + 352;

/// `CloseContextState`, the ZK program's instruction 0.
const CLOSE_CONTEXT_STATE: u8 = 0;

/// The statement of a `CiphertextCommitmentEquality` proof: `ciphertext` (under `pubkey`) and
/// `commitment` hide the same value.
pub struct EqualityContext<'a> {
    pub pubkey: &'a [u8; 32],
    pub ciphertext: &'a [u8; 64],
    pub commitment: &'a [u8; 32],
}

/// The statement of a `BatchedGroupedCiphertext3HandlesValidity` proof over an amount's `lo` and
/// `hi` halves: each grouped ciphertext is `commitment 32 | handle 0 (source) | handle 1
/// (destination) | handle 2 (auditor)`, all well-formed under the three keys.
pub struct ValidityContext<'a> {
    pub source_pubkey: &'a [u8; 32],
    pub destination_pubkey: &'a [u8; 32],
    pub auditor_pubkey: &'a [u8; 32],
    pub lo: &'a [u8; 128],
    pub hi: &'a [u8; 128],
}

/// The statement of a batched range proof: each used `commitments[i]` hides a value below
/// `2^bit_lengths[i]` (unused slots are zero).
pub struct RangeContext<'a> {
    pub proof_type: u8,
    pub commitments: &'a [[u8; 32]; 8],
    pub bit_lengths: &'a [u8; 8],
}

/// `N` bytes at `at`, bounds-checked.
#[inline(always)]
fn array<const N: usize>(data: &[u8], at: usize) -> &[u8; N] {
    let bytes = &data[at..at + N];
    // Exactly N bytes.
    unsafe { &*(bytes.as_ptr() as *const [u8; N]) }
}

impl<'a> ValidityContext<'a> {
    #[inline]
    pub fn commitment_lo(&self) -> &'a [u8; 32] {
        array(self.lo, 0)
    }

    #[inline]
    pub fn commitment_hi(&self) -> &'a [u8; 32] {
        array(self.hi, 0)
    }

    /// Handle 0: the source key's decryption handle of `lo`.
    #[inline]
    pub fn source_handle_lo(&self) -> &'a [u8; 32] {
        array(self.lo, 32)
    }

    #[inline]
    pub fn source_handle_hi(&self) -> &'a [u8; 32] {
        array(self.hi, 32)
    }

    /// `lo`'s ciphertext under the auditor key (commitment || handle 2): what Token-2022's
    /// confidential `Transfer` requires as `transfer_amount_auditor_ciphertext_lo`.
    #[inline]
    pub fn auditor_ciphertext_lo(&self) -> [u8; 64] {
        auditor_ciphertext(self.lo)
    }

    #[inline]
    pub fn auditor_ciphertext_hi(&self) -> [u8; 64] {
        auditor_ciphertext(self.hi)
    }
}

#[inline(always)]
fn auditor_ciphertext(grouped: &[u8; 128]) -> [u8; 64] {
    let mut ciphertext = [0u8; 64];
    ciphertext[..32].copy_from_slice(&grouped[..32]);
    ciphertext[32..].copy_from_slice(&grouped[96..]);
    ciphertext
}

/// The checks every reader shares (see the module doc). Returns the proof type and the data.
#[inline]
fn checked<'a>(account: &'a AccountView, authority: &Pubkey, len: usize) -> Result<(u8, &'a [u8]), PolicyError> {
    if !account.is_writable() {
        return Err(PolicyError::AccountNotWritable);
    }
    if !keys_eq(account.owner(), &ZK_ELGAMAL_PROOF_PROGRAM_ID) {
        return Err(PolicyError::WrongProofContext);
    }
    let data = account.data();
    if data.len() != len || !keys_eq(array(data, 0), authority) {
        return Err(PolicyError::WrongProofContext);
    }
    Ok((data[PROOF_TYPE_OFFSET], data))
}

/// A `CiphertextCommitmentEquality` context (161 bytes, type 3) whose authority is `authority`.
#[inline]
pub fn equality<'a>(account: &'a AccountView, authority: &Pubkey) -> Result<EqualityContext<'a>, PolicyError> {
    let (kind, data) = checked(account, authority, EQUALITY_LEN)?;
    if kind != proof_type::CIPHERTEXT_COMMITMENT_EQUALITY {
        return Err(PolicyError::WrongProofContext);
    }
    Ok(EqualityContext {
        pubkey: array(data, HEADER_LEN),
        ciphertext: array(data, HEADER_LEN + 32),
        commitment: array(data, HEADER_LEN + 96),
    })
}

/// A `BatchedGroupedCiphertext3HandlesValidity` context (385 bytes, type 12) whose authority is
/// `authority`.
#[inline]
pub fn validity<'a>(account: &'a AccountView, authority: &Pubkey) -> Result<ValidityContext<'a>, PolicyError> {
    let (kind, data) = checked(account, authority, VALIDITY_LEN)?;
    if kind != proof_type::BATCHED_GROUPED_CIPHERTEXT_3_HANDLES_VALIDITY {
        return Err(PolicyError::WrongProofContext);
    }
    Ok(ValidityContext {
        source_pubkey: array(data, HEADER_LEN),
        destination_pubkey: array(data, HEADER_LEN + 32),
        auditor_pubkey: array(data, HEADER_LEN + 64),
        lo: array(data, HEADER_LEN + 96),
        hi: array(data, HEADER_LEN + 224),
    })
}

/// A batched range context (297 bytes) of one of `allowed_types` (6 = U64, 7 = U128) whose
/// authority is `authority`.
#[inline]
pub fn range<'a>(
    account: &'a AccountView,
    authority: &Pubkey,
    allowed_types: &[u8],
) -> Result<RangeContext<'a>, PolicyError> {
    let (kind, data) = checked(account, authority, RANGE_LEN)?;
    if !allowed_types.contains(&kind) {
        return Err(PolicyError::WrongProofContext);
    }
    let commitments = array::<256>(data, HEADER_LEN);
    Ok(RangeContext {
        proof_type: kind,
        // [u8; 256] and [[u8; 32]; 8] have the same size, alignment 1 and no invalid patterns.
        commitments: unsafe { &*(commitments.as_ptr() as *const [[u8; 32]; 8]) },
        bit_lengths: array(data, HEADER_LEN + 256),
    })
}

/// Any context of the ZK program (any proof type, at least the header) whose authority is
/// `authority`, writable: what `agent_confidential_close_contexts` accepts to close.
#[inline]
pub fn check_closable(account: &AccountView, authority: &Pubkey) -> Result<(), PolicyError> {
    if !account.is_writable() {
        return Err(PolicyError::AccountNotWritable);
    }
    let data = account.data();
    if !keys_eq(account.owner(), &ZK_ELGAMAL_PROOF_PROGRAM_ID)
        || data.len() < HEADER_LEN
        || !keys_eq(array(data, 0), authority)
    {
        return Err(PolicyError::WrongProofContext);
    }
    Ok(())
}

/// Owner, exact length and proof type, without the authority or writability: for contexts that
/// another program consumes and whoever made them closes (`agent_confidential_withdraw`'s).
#[inline]
pub fn check_type(account: &AccountView, len: usize, kind: u8) -> Result<(), PolicyError> {
    let data = account.data();
    if !keys_eq(account.owner(), &ZK_ELGAMAL_PROOF_PROGRAM_ID) || data.len() != len || data[PROOF_TYPE_OFFSET] != kind {
        return Err(PolicyError::WrongProofContext);
    }
    Ok(())
}

/// Invokes the ZK program's `CloseContextState` (data `[0]`) on accounts `[context (w),
/// destination (w), authority (s)]`: the context's lamports go to `destination`, authorised by
/// `authority` (the agent PDA, signing through `signer`). The ZK program re-checks the authority
/// and refuses `destination == context`. The caller passes the ZK program among its instruction's
/// accounts (the runtime needs the callee there) and checks its id.
#[inline(never)]
pub fn close_context([context, destination, authority]: [&AccountView; 3], signer: &Signer) -> Result<(), PolicyError> {
    let accounts = [
        CpiAccount::writable(context),
        CpiAccount::writable(destination),
        CpiAccount::signing(authority),
    ];
    invoke_signed_by(&ZK_ELGAMAL_PROOF_PROGRAM_ID, &accounts, &[CLOSE_CONTEXT_STATE], signer)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runtime::cpi::Seed;
    use crate::runtime::syscalls::record;
    use crate::state::test_support::HostAccount;

    const AUTHORITY: Pubkey = [3; 32];
    const CONTEXT: Pubkey = [0x21; 32];

    /// A context of `len` bytes and `kind` whose bytes after the header count up from 0.
    fn context_bytes(len: usize, kind: u8) -> Vec<u8> {
        let mut data: Vec<u8> = (0..len).map(|i| (i % 251) as u8).collect();
        data[..32].copy_from_slice(&AUTHORITY);
        data[32] = kind;
        data
    }

    fn host(data: Vec<u8>) -> HostAccount {
        HostAccount::new(CONTEXT, ZK_ELGAMAL_PROOF_PROGRAM_ID, data, true)
    }

    /// The same context with one thing changed: each must be refused with `error`.
    fn refusals(len: usize, kind: u8) -> Vec<(HostAccount, PolicyError)> {
        let mut short = context_bytes(len, kind);
        short.pop();
        let mut long = context_bytes(len, kind);
        long.push(0);
        let mut other_authority = context_bytes(len, kind);
        other_authority[0] ^= 1;
        let mut other_type = context_bytes(len, kind);
        other_type[32] = 1; // ZeroCiphertext
        vec![
            (
                HostAccount::new(CONTEXT, [0x99; 32], context_bytes(len, kind), true),
                PolicyError::WrongProofContext,
            ),
            (
                HostAccount::new(CONTEXT, ZK_ELGAMAL_PROOF_PROGRAM_ID, context_bytes(len, kind), false),
                PolicyError::AccountNotWritable,
            ),
            (host(short), PolicyError::WrongProofContext),
            (host(long), PolicyError::WrongProofContext),
            (host(other_authority), PolicyError::WrongProofContext),
            (host(other_type), PolicyError::WrongProofContext),
            (host(vec![]), PolicyError::WrongProofContext),
        ]
    }

    #[test]
    fn reads_an_equality_context_at_its_offsets() {
        let bytes = context_bytes(EQUALITY_LEN, 3);
        let mut account = host(bytes.clone());
        let view = account.view();
        let context = equality(&view, &AUTHORITY).unwrap();
        assert_eq!(&context.pubkey[..], &bytes[33..65]);
        assert_eq!(&context.ciphertext[..], &bytes[65..129]);
        assert_eq!(&context.commitment[..], &bytes[129..161]);
    }

    #[test]
    fn refuses_an_equality_context_of_another_owner_size_type_or_authority_or_read_only() {
        for (mut account, error) in refusals(EQUALITY_LEN, 3) {
            assert_eq!(equality(&account.view(), &AUTHORITY).err(), Some(error));
        }
        // A range context passed as an equality one
        let mut range_context = host(context_bytes(RANGE_LEN, 6));
        assert_eq!(
            equality(&range_context.view(), &AUTHORITY).err(),
            Some(PolicyError::WrongProofContext)
        );
    }

    #[test]
    fn reads_a_validity_context_and_its_derived_ciphertexts() {
        let bytes = context_bytes(VALIDITY_LEN, 12);
        let mut account = host(bytes.clone());
        let view = account.view();
        let context = validity(&view, &AUTHORITY).unwrap();
        assert_eq!(&context.source_pubkey[..], &bytes[33..65]);
        assert_eq!(&context.destination_pubkey[..], &bytes[65..97]);
        assert_eq!(&context.auditor_pubkey[..], &bytes[97..129]);
        assert_eq!(&context.lo[..], &bytes[129..257]);
        assert_eq!(&context.hi[..], &bytes[257..385]);
        assert_eq!(&context.commitment_lo()[..], &bytes[129..161]);
        assert_eq!(&context.source_handle_lo()[..], &bytes[161..193]);
        assert_eq!(&context.commitment_hi()[..], &bytes[257..289]);
        assert_eq!(&context.source_handle_hi()[..], &bytes[289..321]);
        // Auditor = handle 2: commitment || lo[96..128]
        assert_eq!(
            context.auditor_ciphertext_lo().to_vec(),
            [&bytes[129..161], &bytes[225..257]].concat()
        );
        assert_eq!(
            context.auditor_ciphertext_hi().to_vec(),
            [&bytes[257..289], &bytes[353..385]].concat()
        );
    }

    #[test]
    fn refuses_a_validity_context_of_another_owner_size_type_or_authority_or_read_only() {
        for (mut account, error) in refusals(VALIDITY_LEN, 12) {
            assert_eq!(validity(&account.view(), &AUTHORITY).err(), Some(error));
        }
        // The 3-handles (unbatched, type 11) context is another size and type
        let mut unbatched = host(context_bytes(HEADER_LEN + 224, 11));
        assert_eq!(
            validity(&unbatched.view(), &AUTHORITY).err(),
            Some(PolicyError::WrongProofContext)
        );
    }

    #[test]
    fn reads_a_range_context_of_an_allowed_type() {
        for kind in [6, 7] {
            let bytes = context_bytes(RANGE_LEN, kind);
            let mut account = host(bytes.clone());
            let view = account.view();
            let context = range(&view, &AUTHORITY, &[6, 7]).unwrap();
            assert_eq!(context.proof_type, kind);
            assert_eq!(&context.commitments[0][..], &bytes[33..65]);
            assert_eq!(&context.commitments[1][..], &bytes[65..97]);
            assert_eq!(&context.commitments[7][..], &bytes[257..289]);
            assert_eq!(&context.bit_lengths[..], &bytes[289..297]);
        }
    }

    #[test]
    fn refuses_a_range_context_of_another_type_owner_size_or_authority_or_read_only() {
        for (mut account, error) in refusals(RANGE_LEN, 6) {
            assert_eq!(range(&account.view(), &AUTHORITY, &[6, 7]).err(), Some(error));
        }
        // U128 where only U64 is allowed; U256 (8) has the same size
        let mut u128_context = host(context_bytes(RANGE_LEN, 7));
        assert_eq!(
            range(&u128_context.view(), &AUTHORITY, &[6]).err(),
            Some(PolicyError::WrongProofContext)
        );
        let mut u256_context = host(context_bytes(RANGE_LEN, 8));
        assert_eq!(
            range(&u256_context.view(), &AUTHORITY, &[6, 7]).err(),
            Some(PolicyError::WrongProofContext)
        );
    }

    #[test]
    fn closable_is_any_context_of_the_authority_at_least_a_header_long() {
        for (len, kind) in [
            (HEADER_LEN, 0),
            (EQUALITY_LEN, 3),
            (HEADER_LEN + 32, 4),
            (VALIDITY_LEN, 12),
        ] {
            assert_eq!(
                check_closable(&host(context_bytes(len, kind)).view(), &AUTHORITY),
                Ok(())
            );
        }
        let mut other_authority = context_bytes(EQUALITY_LEN, 3);
        other_authority[31] ^= 1;
        for (mut account, error) in [
            (host(other_authority), PolicyError::WrongProofContext),
            (
                host(context_bytes(HEADER_LEN, 3)[..32].to_vec()),
                PolicyError::WrongProofContext,
            ),
            (
                HostAccount::new(CONTEXT, [0x99; 32], context_bytes(EQUALITY_LEN, 3), true),
                PolicyError::WrongProofContext,
            ),
            (
                HostAccount::new(
                    CONTEXT,
                    ZK_ELGAMAL_PROOF_PROGRAM_ID,
                    context_bytes(EQUALITY_LEN, 3),
                    false,
                ),
                PolicyError::AccountNotWritable,
            ),
        ] {
            assert_eq!(check_closable(&account.view(), &AUTHORITY), Err(error));
        }
    }

    #[test]
    fn check_type_needs_owner_size_and_type_but_no_authority() {
        let mut foreign_authority = context_bytes(EQUALITY_LEN, 3);
        foreign_authority[..32].copy_from_slice(&[0x44; 32]);
        let read_only = HostAccount::new(CONTEXT, ZK_ELGAMAL_PROOF_PROGRAM_ID, foreign_authority, false);
        let mut read_only = read_only;
        assert_eq!(check_type(&read_only.view(), EQUALITY_LEN, 3), Ok(()));
        assert_eq!(
            check_type(&read_only.view(), EQUALITY_LEN, 6),
            Err(PolicyError::WrongProofContext)
        );
        assert_eq!(
            check_type(&read_only.view(), RANGE_LEN, 3),
            Err(PolicyError::WrongProofContext)
        );
        let mut foreign = HostAccount::new(CONTEXT, [0x99; 32], context_bytes(EQUALITY_LEN, 3), true);
        assert_eq!(
            check_type(&foreign.view(), EQUALITY_LEN, 3),
            Err(PolicyError::WrongProofContext)
        );
    }

    #[test]
    fn close_context_invokes_close_context_state_signed_by_the_authority() {
        let mut context = host(context_bytes(EQUALITY_LEN, 3));
        let mut destination = HostAccount::new([0x22; 32], [0; 32], vec![], true);
        let mut authority = HostAccount::new(AUTHORITY, [0xAA; 32], vec![], false);
        let bump = [254];
        let seeds = [Seed::new(b"agent"), Seed::new(&[12; 32]), Seed::new(&bump)];
        record::reset(None);
        let result = close_context(
            [&context.view(), &destination.view(), &authority.view()],
            &Signer::new(&seeds),
        );
        assert_eq!(result, Ok(()));
        let [cpi] = &record::invocations()[..] else {
            panic!("expected one CPI")
        };
        assert_eq!(cpi.program_id, ZK_ELGAMAL_PROOF_PROGRAM_ID);
        assert_eq!(cpi.data, vec![0]);
        assert_eq!(
            cpi.accounts,
            vec![
                (CONTEXT, true, false),
                ([0x22; 32], true, false),
                (AUTHORITY, false, true)
            ]
        );
        assert_eq!(cpi.signer_seeds, vec![vec![b"agent".to_vec(), vec![12; 32], vec![254]]]);
    }
}

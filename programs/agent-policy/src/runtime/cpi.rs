//! Cross-program invocation through `sol_invoke_signed_c` (the C ABI: plain structs, no Rust
//! `AccountInfo` with `Rc<RefCell>`), plus the System program instructions the program needs.

use super::account::AccountView;
use super::{syscalls, Pubkey};
use crate::error::PolicyError;
use core::mem::MaybeUninit;

#[repr(C)]
struct SolAccountMeta {
    pubkey: *const Pubkey,
    is_writable: bool,
    is_signer: bool,
}

#[repr(C)]
struct SolInstruction {
    program_id: *const Pubkey,
    accounts: *const SolAccountMeta,
    account_len: u64,
    data: *const u8,
    data_len: u64,
}

#[repr(C)]
struct SolAccountInfo {
    key: *const Pubkey,
    lamports: *mut u64,
    data_len: u64,
    data: *mut u8,
    owner: *const Pubkey,
    rent_epoch: u64,
    /// The C `bool`s `is_signer`, `is_writable`, `executable` (offsets 48, 49, 50) and the struct's
    /// padding byte, copied as one word of the loader's 0/1 bytes (no re-normalisation on the hot
    /// path; the runtime never reads the padding byte).
    flags: u32,
}

const _: () = assert!(core::mem::size_of::<SolAccountInfo>() == 56);
const _: () = assert!(core::mem::offset_of!(SolAccountInfo, flags) == 48);

/// One seed of a PDA signature (C ABI `SolSignerSeed`).
#[repr(C)]
pub struct Seed {
    addr: *const u8,
    len: u64,
}

impl Seed {
    /// No seed: a placeholder in a fixed-size array, never handed to the runtime.
    pub const EMPTY: Self = Self {
        addr: core::ptr::null(),
        len: 0,
    };

    pub fn new(bytes: &[u8]) -> Self {
        Self {
            addr: bytes.as_ptr(),
            len: bytes.len() as u64,
        }
    }
}

/// The seeds (bump included) of one PDA that signs the invocation (C ABI `SolSignerSeeds`).
#[repr(C)]
pub struct Signer {
    addr: *const Seed,
    len: u64,
}

impl Signer {
    pub fn new(seeds: &[Seed]) -> Self {
        Self {
            addr: seeds.as_ptr(),
            len: seeds.len() as u64,
        }
    }
}

/// An account passed to a CPI: the view plus the privileges the callee gets.
pub struct CpiAccount {
    pub view: AccountView,
    pub is_writable: bool,
    pub is_signer: bool,
}

impl CpiAccount {
    /// Writable, not signing.
    #[inline(always)]
    pub fn writable(view: &AccountView) -> Self {
        Self::with(view, true, false)
    }

    /// Read-only, not signing.
    #[inline(always)]
    pub fn readonly(view: &AccountView) -> Self {
        Self::with(view, false, false)
    }

    /// Read-only and signing: a PDA of this program, through the call's signer seeds.
    #[inline(always)]
    pub fn signing(view: &AccountView) -> Self {
        Self::with(view, false, true)
    }

    /// Writable and signing: a payer, or an account being created.
    #[inline(always)]
    pub fn writable_signing(view: &AccountView) -> Self {
        Self::with(view, true, true)
    }

    #[inline(always)]
    fn with(view: &AccountView, is_writable: bool, is_signer: bool) -> Self {
        Self {
            view: *view,
            is_writable,
            is_signer,
        }
    }
}

/// A call's instruction data, written field after field into `N` bytes: the offsets follow from
/// the fields instead of being typed by hand. Writing past `N` is a bug of the caller (it aborts).
/// Used by the confidential-transfer CPIs; the hot paths' small calls (`TransferChecked`, System
/// account creation) keep their fixed offsets, measured 1-5 CU cheaper.
pub struct CallData<const N: usize> {
    bytes: [u8; N],
    len: usize,
}

impl<const N: usize> CallData<N> {
    #[inline(always)]
    pub fn new() -> Self {
        Self { bytes: [0; N], len: 0 }
    }

    /// Appends `field`.
    #[inline(always)]
    pub fn put(mut self, field: &[u8]) -> Self {
        let end = self.len + field.len();
        self.bytes[self.len..end].copy_from_slice(field);
        self.len = end;
        self
    }

    /// The bytes written.
    #[inline(always)]
    pub fn bytes(&self) -> &[u8] {
        &self.bytes[..self.len]
    }
}

impl<const N: usize> Default for CallData<N> {
    fn default() -> Self {
        Self::new()
    }
}

const MAX_CPI_ACCOUNTS: usize = 8;

/// One cross-program call: the callee, its accounts (metas and infos in the same order), its data,
/// and the PDAs that sign it. A struct, because SBF passes at most 5 arguments in registers and
/// upstream llc cannot spill more to the stack.
pub struct Call<'a> {
    pub program_id: &'a Pubkey,
    pub accounts: &'a [CpiAccount],
    pub data: &'a [u8],
    pub signers: &'a [Signer],
}

/// Invokes `program_id` with one PDA of this program signing through `signer` (the agent's, in
/// every such call the program makes).
#[inline(always)]
pub fn invoke_signed_by(
    program_id: &Pubkey,
    accounts: &[CpiAccount],
    data: &[u8],
    signer: &Signer,
) -> Result<(), PolicyError> {
    invoke_signed(&Call {
        program_id,
        accounts,
        data,
        signers: core::slice::from_ref(signer),
    })
}

/// Invokes `call`. A failure of the callee aborts the whole transaction (runtime semantics), so an
/// `Err` here only reports a malformed call.
#[inline]
pub fn invoke_signed(call: &Call) -> Result<(), PolicyError> {
    let Call {
        program_id,
        accounts,
        data,
        signers,
    } = *call;
    if accounts.len() > MAX_CPI_ACCOUNTS {
        return Err(PolicyError::NotEnoughAccounts);
    }
    // Only the first `accounts.len()` entries are written, and only those are handed to the runtime.
    let mut metas: [MaybeUninit<SolAccountMeta>; MAX_CPI_ACCOUNTS] =
        [const { MaybeUninit::uninit() }; MAX_CPI_ACCOUNTS];
    let mut infos: [MaybeUninit<SolAccountInfo>; MAX_CPI_ACCOUNTS] =
        [const { MaybeUninit::uninit() }; MAX_CPI_ACCOUNTS];
    for ((account, meta), info) in accounts.iter().zip(metas.iter_mut()).zip(infos.iter_mut()) {
        let view = &account.view;
        meta.write(SolAccountMeta {
            pubkey: view.key_ptr(),
            is_writable: account.is_writable,
            is_signer: account.is_signer,
        });
        info.write(SolAccountInfo {
            key: view.key_ptr(),
            lamports: view.lamports_ptr(),
            data_len: view.data_len() as u64,
            data: view.data_ptr(),
            owner: view.owner_ptr(),
            rent_epoch: 0,
            flags: view.flag_bytes(),
        });
    }
    let instruction = SolInstruction {
        program_id,
        accounts: metas.as_ptr() as *const SolAccountMeta,
        account_len: accounts.len() as u64,
        data: data.as_ptr(),
        data_len: data.len() as u64,
    };
    let status = unsafe {
        syscalls::sol_invoke_signed_c(
            &instruction as *const SolInstruction as *const u8,
            infos.as_ptr() as *const u8,
            accounts.len() as u64,
            signers.as_ptr() as *const u8,
            signers.len() as u64,
        )
    };
    syscalls::check(status, PolicyError::WrongProgram)
}

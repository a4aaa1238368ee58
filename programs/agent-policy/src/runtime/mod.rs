//! The Solana runtime interface, written out by hand (no solana-program crate): the serialized input
//! the loader hands the entrypoint, syscalls, cross-program invocation, PDAs, sysvars and logging.

pub mod account;
pub mod clock;
pub mod cpi;
pub mod curve;
pub mod hash;
pub mod input;
pub mod log;
pub mod pda;
pub mod rent;
pub mod syscalls;
pub mod system;

/// A 32-byte Solana address.
pub type Pubkey = [u8; 32];

/// `11111111111111111111111111111111`
pub const SYSTEM_PROGRAM_ID: Pubkey = [0; 32];

/// `BPFLoaderUpgradeab1e11111111111111111111111`
pub const BPF_LOADER_UPGRADEABLE_ID: Pubkey = [
    2, 168, 246, 145, 78, 136, 161, 176, 226, 16, 21, 62, 247, 99, 174, 43, 0, 194, 185, 61, 22, 193, 36, 210, 192, 83,
    122, 16, 4, 128, 0, 0,
];

/// `TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb`
pub const TOKEN_2022_PROGRAM_ID: Pubkey = [
    6, 221, 246, 225, 238, 117, 143, 222, 24, 66, 93, 188, 228, 108, 205, 218, 182, 26, 252, 77, 131, 185, 13, 39, 254,
    189, 249, 40, 216, 161, 139, 252,
];

/// `ZkE1Gama1Proof11111111111111111111111111111`: the native program that verifies ElGamal proofs
/// into context-state accounts (`crate::zk_context`).
pub const ZK_ELGAMAL_PROOF_PROGRAM_ID: Pubkey = [
    8, 99, 117, 172, 226, 174, 234, 40, 26, 107, 55, 77, 104, 27, 167, 106, 83, 204, 246, 56, 192, 116, 85, 147, 108,
    5, 208, 101, 64, 0, 0, 0,
];

/// `Sysvar1nstructions1111111111111111111111111`: the transaction's instructions, read by
/// Token-2022 `ConfigureAccount` to find the proof instruction that follows.
pub const INSTRUCTIONS_SYSVAR_ID: Pubkey = [
    6, 167, 213, 23, 24, 123, 209, 102, 53, 218, 212, 4, 85, 253, 194, 192, 193, 36, 198, 143, 33, 86, 117, 165, 219,
    186, 203, 95, 8, 0, 0, 0,
];

/// Compares two addresses as four 8-byte words: a handful of instructions where `==` on
/// `[u8; 32]` may become a byte loop or a `memcmp` call.
#[inline(always)]
pub fn keys_eq(a: &Pubkey, b: &Pubkey) -> bool {
    let word = |key: &Pubkey, i: usize| unsafe { core::ptr::read_unaligned(key.as_ptr().add(i * 8) as *const u64) };
    (word(a, 0) ^ word(b, 0)) | (word(a, 1) ^ word(b, 1)) | (word(a, 2) ^ word(b, 2)) | (word(a, 3) ^ word(b, 3)) == 0
}

/// True for the all-zero address (the System program's id, never a valid mint or wallet here).
#[inline(always)]
pub fn is_zero_key(key: &Pubkey) -> bool {
    keys_eq(key, &SYSTEM_PROGRAM_ID)
}

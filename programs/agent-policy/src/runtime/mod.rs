//! The Solana runtime interface, written out by hand (no solana-program crate): the serialized input
//! the loader hands the entrypoint, syscalls, cross-program invocation, PDAs, sysvars and logging.

pub mod account;
pub mod cpi;
pub mod input;
pub mod log;
pub mod pda;
pub mod rent;
pub mod system;
pub mod syscalls;

/// A 32-byte Solana address.
pub type Pubkey = [u8; 32];

/// `11111111111111111111111111111111`
pub const SYSTEM_PROGRAM_ID: Pubkey = [0; 32];

/// `BPFLoaderUpgradeab1e11111111111111111111111`
pub const BPF_LOADER_UPGRADEABLE_ID: Pubkey = [
    2, 168, 246, 145, 78, 136, 161, 176, 226, 16, 21, 62, 247, 99, 174, 43, 0, 194, 185, 61, 22, 193, 36, 210, 192,
    83, 122, 16, 4, 128, 0, 0,
];

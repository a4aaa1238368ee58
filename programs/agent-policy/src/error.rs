//! Program errors: data, append-only from 6000 (Anchor's custom-error range), mirrored 1:1 in the IDL
//! and the TypeScript client. Never renumber or reuse a code: clients and the indexer store them.

/// A failure the program reports as `InstructionError(_, Custom(code))`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u32)]
pub enum PolicyError {
    /// The instruction data is shorter than its layout or has an unknown discriminator.
    InvalidInstructionData = 6000, // 6000
    /// Fewer accounts were passed than the instruction lists.
    NotEnoughAccounts = 6001, // 6001
    /// A required signature is missing.
    MissingSigner = 6002, // 6002
    /// An account that must be writable was passed read-only.
    AccountNotWritable = 6003, // 6003
    /// An account is owned by a program other than the one its type requires.
    WrongAccountOwner = 6004, // 6004
    /// An account's address is not the PDA its seeds and bump derive.
    WrongPda = 6005, // 6005
    /// An account's data is too short or its discriminator is not the expected type's.
    WrongAccountData = 6006, // 6006
    /// The account to create already exists.
    AccountAlreadyInitialized = 6007, // 6007
    /// A program account passed for a CPI is not the expected program.
    WrongProgram = 6008, // 6008
    /// Only the program's upgrade authority may initialize the config.
    NotUpgradeAuthority = 6009, // 6009
    /// Checked arithmetic overflowed.
    ArithmeticOverflow = 6010, // 6010
    /// The Rent sysvar holds a value the program cannot use (a non-integer exemption threshold).
    UnsupportedRent = 6011, // 6011
}

impl PolicyError {
    pub const fn code(self) -> u64 {
        self as u32 as u64
    }

    /// The error's name as the IDL spells it (PascalCase).
    pub const fn name(self) -> &'static str {
        match self {
            Self::InvalidInstructionData => "InvalidInstructionData",
            Self::NotEnoughAccounts => "NotEnoughAccounts",
            Self::MissingSigner => "MissingSigner",
            Self::AccountNotWritable => "AccountNotWritable",
            Self::WrongAccountOwner => "WrongAccountOwner",
            Self::WrongPda => "WrongPda",
            Self::WrongAccountData => "WrongAccountData",
            Self::AccountAlreadyInitialized => "AccountAlreadyInitialized",
            Self::WrongProgram => "WrongProgram",
            Self::NotUpgradeAuthority => "NotUpgradeAuthority",
            Self::ArithmeticOverflow => "ArithmeticOverflow",
            Self::UnsupportedRent => "UnsupportedRent",
        }
    }

    /// The message the IDL carries for this error (kept here so tests can compare both).
    pub const fn message(self) -> &'static str {
        match self {
            Self::InvalidInstructionData => "Instruction data is malformed or has an unknown discriminator",
            Self::NotEnoughAccounts => "Not enough accounts were passed to the instruction",
            Self::MissingSigner => "A required signer did not sign",
            Self::AccountNotWritable => "An account that must be writable is read-only",
            Self::WrongAccountOwner => "An account is owned by the wrong program",
            Self::WrongPda => "An account is not the expected program-derived address",
            Self::WrongAccountData => "An account's data is not the expected type",
            Self::AccountAlreadyInitialized => "The account already exists",
            Self::WrongProgram => "A program account is not the expected program",
            Self::NotUpgradeAuthority => "Only the program's upgrade authority may do this",
            Self::ArithmeticOverflow => "Arithmetic overflow",
            Self::UnsupportedRent => "The Rent sysvar has an unsupported exemption threshold",
        }
    }
}

/// Every error, in code order (the IDL test walks this list).
pub const ALL_ERRORS: [PolicyError; 12] = [
    PolicyError::InvalidInstructionData,
    PolicyError::NotEnoughAccounts,
    PolicyError::MissingSigner,
    PolicyError::AccountNotWritable,
    PolicyError::WrongAccountOwner,
    PolicyError::WrongPda,
    PolicyError::WrongAccountData,
    PolicyError::AccountAlreadyInitialized,
    PolicyError::WrongProgram,
    PolicyError::NotUpgradeAuthority,
    PolicyError::ArithmeticOverflow,
    PolicyError::UnsupportedRent,
];

pub type ProgramResult = Result<(), PolicyError>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_contiguous_from_6000_in_declaration_order() {
        for (index, error) in ALL_ERRORS.iter().enumerate() {
            assert_eq!(error.code(), 6000 + index as u64, "{error:?}");
            assert!(!error.message().is_empty());
        }
    }
}

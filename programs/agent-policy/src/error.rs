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
    /// A handle is not in normalised form (lower-case labels of [a-z0-9_-] joined by '.', or owner/name for an agent) or is too long.
    InvalidHandle = 6012, // 6012
    /// The handle kind is not allowed here (agent handles are created only by agent_create; an agent cannot own agents).
    HandleKindNotAllowed = 6013, // 6013
    /// Only the config's registrar may register handles.
    NotRegistrar = 6014, // 6014
    /// The signer is not the agent's owner (or does not own the handle the agent is created under).
    NotAgentOwner = 6015, // 6015
    /// The signer is not the agent's signer.
    NotAgentSigner = 6016, // 6016
    /// The agent signer must not be the owner: the key that spends can never approve.
    AgentSignerIsOwner = 6017, // 6017
    /// An active-hours minute is not below 1440.
    InvalidActiveHours = 6018, // 6018
    /// A recipient pattern is malformed (bad name or suffix, zero address, unknown kind).
    InvalidRecipientPattern = 6019, // 6019
    /// More than 16 recipient patterns.
    TooManyRecipientPatterns = 6020, // 6020
    /// An allowed mint is the zero address or listed twice.
    InvalidMint = 6021, // 6021
    /// More than 4 allowed mints.
    TooManyMints = 6022, // 6022
    /// The approval window is not between 1 second and 7 days.
    InvalidApprovalWindow = 6023, // 6023
    /// The amount is above the per-transaction limit.
    PerTransactionLimitExceeded = 6024, // 6024
    /// Today's spend plus the amount is above the daily limit.
    DailyLimitExceeded = 6025, // 6025
    /// No recipient pattern of the policy matches the destination.
    RecipientNotAllowed = 6026, // 6026
    /// The mint is not in the policy's allowed mints.
    MintNotAllowed = 6027, // 6027
    /// The current UTC minute is outside the policy's active hours.
    OutsideActiveHours = 6028, // 6028
    /// The held transaction's approval window has passed.
    TransactionExpired = 6029, // 6029
    /// The held transaction can still be approved or rejected.
    TransactionNotExpired = 6030, // 6030
    /// The pending account does not belong to this agent or the accounts passed differ from the held ones.
    WrongPendingTransaction = 6031, // 6031
    /// A token account or mint is not a valid Token-2022 one for this transfer (owner program, layout, state, mint or owner).
    WrongTokenAccount = 6032, // 6032
    /// The rent receiver is not the account that paid the rent (of a pending account or a receipt).
    WrongRentReceiver = 6033, // 6033
    /// The memo is longer than 256 bytes.
    MemoTooLong = 6034, // 6034
    /// The agent is not active.
    AgentNotActive = 6035, // 6035
    /// A ZK proof context account is not owned by the ZK ElGamal Proof program, has the wrong size or proof type, or another authority.
    WrongProofContext = 6036, // 6036
    /// A limit proof's context does not prove the value the program computed (ciphertext, key or commitment differs).
    LimitProofMismatch = 6037, // 6037
    /// The agent has an open confidential hold: its confidential balance must not change until the hold is closed.
    ConfidentialHoldOpen = 6038, // 6038
    /// The transfer's source ElGamal key is not the key today's confidential spend is encrypted under.
    ConfidentialKeyMismatch = 6039, // 6039
    /// The agent already spent confidentially today: a public spend cannot be added to a total the program cannot see.
    PublicSpendAfterConfidential = 6040, // 6040
    /// The policy in force is tighter than the limits the held confidential transfer was proved against.
    ConfidentialHoldPolicyTightened = 6041, // 6041
    /// Bytes that must encode a Ristretto255 point do not (or a curve operation failed).
    InvalidCurvePoint = 6042, // 6042
    /// The receipt is younger than `receipt_close::MIN_AGE_SLOTS`: its record may not be final, or a
    /// signed copy of its transfer may still land.
    ReceiptTooRecent = 6043, // 6043
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
            Self::InvalidHandle => "InvalidHandle",
            Self::HandleKindNotAllowed => "HandleKindNotAllowed",
            Self::NotRegistrar => "NotRegistrar",
            Self::NotAgentOwner => "NotAgentOwner",
            Self::NotAgentSigner => "NotAgentSigner",
            Self::AgentSignerIsOwner => "AgentSignerIsOwner",
            Self::InvalidActiveHours => "InvalidActiveHours",
            Self::InvalidRecipientPattern => "InvalidRecipientPattern",
            Self::TooManyRecipientPatterns => "TooManyRecipientPatterns",
            Self::InvalidMint => "InvalidMint",
            Self::TooManyMints => "TooManyMints",
            Self::InvalidApprovalWindow => "InvalidApprovalWindow",
            Self::PerTransactionLimitExceeded => "PerTransactionLimitExceeded",
            Self::DailyLimitExceeded => "DailyLimitExceeded",
            Self::RecipientNotAllowed => "RecipientNotAllowed",
            Self::MintNotAllowed => "MintNotAllowed",
            Self::OutsideActiveHours => "OutsideActiveHours",
            Self::TransactionExpired => "TransactionExpired",
            Self::TransactionNotExpired => "TransactionNotExpired",
            Self::WrongPendingTransaction => "WrongPendingTransaction",
            Self::WrongTokenAccount => "WrongTokenAccount",
            Self::WrongRentReceiver => "WrongRentReceiver",
            Self::MemoTooLong => "MemoTooLong",
            Self::AgentNotActive => "AgentNotActive",
            Self::WrongProofContext => "WrongProofContext",
            Self::LimitProofMismatch => "LimitProofMismatch",
            Self::ConfidentialHoldOpen => "ConfidentialHoldOpen",
            Self::ConfidentialKeyMismatch => "ConfidentialKeyMismatch",
            Self::PublicSpendAfterConfidential => "PublicSpendAfterConfidential",
            Self::ConfidentialHoldPolicyTightened => "ConfidentialHoldPolicyTightened",
            Self::InvalidCurvePoint => "InvalidCurvePoint",
            Self::ReceiptTooRecent => "ReceiptTooRecent",
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
            Self::InvalidHandle => "The handle is not a valid normalised account or agent handle",
            Self::HandleKindNotAllowed => "The handle kind is unknown or not allowed here",
            Self::NotRegistrar => "Only the config's registrar may register handles",
            Self::NotAgentOwner => "Only the agent's owner may do this",
            Self::NotAgentSigner => "Only the agent's signer may initiate its transfers",
            Self::AgentSignerIsOwner => "The agent signer must not be the agent's owner",
            Self::InvalidActiveHours => "Active hours must be minutes of the day below 1440",
            Self::InvalidRecipientPattern => "A recipient pattern is malformed",
            Self::TooManyRecipientPatterns => "A policy allows at most 16 recipient patterns",
            Self::InvalidMint => "An allowed mint is the zero address or listed twice",
            Self::TooManyMints => "A policy allows at most 4 mints",
            Self::InvalidApprovalWindow => "The approval window must be between 1 second and 7 days",
            Self::PerTransactionLimitExceeded => "The amount exceeds the per-transaction limit",
            Self::DailyLimitExceeded => "The amount would exceed the daily limit",
            Self::RecipientNotAllowed => "The recipient is not in the policy's allowed recipients",
            Self::MintNotAllowed => "The mint is not in the policy's allowed assets",
            Self::OutsideActiveHours => "The transfer is outside the policy's active hours",
            Self::TransactionExpired => "The held transaction's approval window has expired",
            Self::TransactionNotExpired => "The held transaction has not expired yet",
            Self::WrongPendingTransaction => "The pending transaction does not match the accounts passed",
            Self::WrongTokenAccount => "A token account or mint is not the expected one",
            Self::WrongRentReceiver => "The rent receiver is not the account that paid the rent",
            Self::MemoTooLong => "The memo is longer than 256 bytes",
            Self::AgentNotActive => "The agent is not active",
            Self::WrongProofContext => "A proof context account has the wrong owner, size, proof type or authority",
            Self::LimitProofMismatch => "A limit proof does not prove the value the program computed",
            Self::ConfidentialHoldOpen => "The agent has an open confidential hold",
            Self::ConfidentialKeyMismatch => "The source key is not the key of today's confidential spend",
            Self::PublicSpendAfterConfidential => "The agent already spent confidentially today",
            Self::ConfidentialHoldPolicyTightened => {
                "The policy is tighter than the limits the hold was proved against"
            }
            Self::InvalidCurvePoint => "Bytes that must be a Ristretto255 point are not one",
            Self::ReceiptTooRecent => "The receipt is too recent to close",
        }
    }
}

/// Every error, in code order (the IDL test walks this list).
pub const ALL_ERRORS: [PolicyError; 44] = [
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
    PolicyError::InvalidHandle,
    PolicyError::HandleKindNotAllowed,
    PolicyError::NotRegistrar,
    PolicyError::NotAgentOwner,
    PolicyError::NotAgentSigner,
    PolicyError::AgentSignerIsOwner,
    PolicyError::InvalidActiveHours,
    PolicyError::InvalidRecipientPattern,
    PolicyError::TooManyRecipientPatterns,
    PolicyError::InvalidMint,
    PolicyError::TooManyMints,
    PolicyError::InvalidApprovalWindow,
    PolicyError::PerTransactionLimitExceeded,
    PolicyError::DailyLimitExceeded,
    PolicyError::RecipientNotAllowed,
    PolicyError::MintNotAllowed,
    PolicyError::OutsideActiveHours,
    PolicyError::TransactionExpired,
    PolicyError::TransactionNotExpired,
    PolicyError::WrongPendingTransaction,
    PolicyError::WrongTokenAccount,
    PolicyError::WrongRentReceiver,
    PolicyError::MemoTooLong,
    PolicyError::AgentNotActive,
    PolicyError::WrongProofContext,
    PolicyError::LimitProofMismatch,
    PolicyError::ConfidentialHoldOpen,
    PolicyError::ConfidentialKeyMismatch,
    PolicyError::PublicSpendAfterConfidential,
    PolicyError::ConfidentialHoldPolicyTightened,
    PolicyError::InvalidCurvePoint,
    PolicyError::ReceiptTooRecent,
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

    #[test]
    fn issue_3_codes_are_the_ones_the_readme_lists() {
        // Given the codes programs/agent-policy/README.md publishes
        let published = [
            (6012, "InvalidHandle"),
            (6013, "HandleKindNotAllowed"),
            (6014, "NotRegistrar"),
            (6015, "NotAgentOwner"),
            (6016, "NotAgentSigner"),
            (6017, "AgentSignerIsOwner"),
            (6018, "InvalidActiveHours"),
            (6019, "InvalidRecipientPattern"),
            (6020, "TooManyRecipientPatterns"),
            (6021, "InvalidMint"),
            (6022, "TooManyMints"),
            (6023, "InvalidApprovalWindow"),
            (6024, "PerTransactionLimitExceeded"),
            (6025, "DailyLimitExceeded"),
            (6026, "RecipientNotAllowed"),
            (6027, "MintNotAllowed"),
            (6028, "OutsideActiveHours"),
            (6029, "TransactionExpired"),
            (6030, "TransactionNotExpired"),
            (6031, "WrongPendingTransaction"),
            (6032, "WrongTokenAccount"),
            (6033, "WrongRentReceiver"),
            (6034, "MemoTooLong"),
            (6035, "AgentNotActive"),
            (6036, "WrongProofContext"),
            (6037, "LimitProofMismatch"),
            (6038, "ConfidentialHoldOpen"),
            (6039, "ConfidentialKeyMismatch"),
            (6040, "PublicSpendAfterConfidential"),
            (6041, "ConfidentialHoldPolicyTightened"),
            (6042, "InvalidCurvePoint"),
            (6043, "ReceiptTooRecent"),
        ];
        // Then each error carries exactly that code and name, and the messages are distinct enough to log
        for (code, name) in published {
            let error = ALL_ERRORS[(code - 6000) as usize];
            assert_eq!((error.code(), error.name()), (code, name));
            assert!(
                error.message().len() < 120,
                "{name}: keep messages short, they go into a 256-byte log line"
            );
        }
    }
}

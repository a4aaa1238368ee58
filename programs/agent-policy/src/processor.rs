//! Instruction dispatch on the 8-byte Anchor discriminator (one `u64` compare per arm, the hot
//! `agent_transfer` first).

use crate::discriminator::{as_u64, instruction};
use crate::error::{PolicyError, ProgramResult};
use crate::instructions;
use crate::runtime::input::Input;

const AGENT_TRANSFER: u64 = as_u64(instruction::AGENT_TRANSFER);
const PENDING_APPROVE: u64 = as_u64(instruction::PENDING_APPROVE);
const TRANSFER_RECORD: u64 = as_u64(instruction::TRANSFER_RECORD);
const PENDING_REJECT: u64 = as_u64(instruction::PENDING_REJECT);
const PENDING_CLOSE_EXPIRED: u64 = as_u64(instruction::PENDING_CLOSE_EXPIRED);
const POLICY_UPDATE: u64 = as_u64(instruction::POLICY_UPDATE);
const AGENT_CREATE: u64 = as_u64(instruction::AGENT_CREATE);
const HANDLE_REGISTER: u64 = as_u64(instruction::HANDLE_REGISTER);
const CONFIG_INITIALIZE: u64 = as_u64(instruction::CONFIG_INITIALIZE);
const AGENT_CONFIDENTIAL_CONFIGURE: u64 = as_u64(instruction::AGENT_CONFIDENTIAL_CONFIGURE);
const AGENT_CONFIDENTIAL_DEPOSIT: u64 = as_u64(instruction::AGENT_CONFIDENTIAL_DEPOSIT);
const AGENT_CONFIDENTIAL_APPLY: u64 = as_u64(instruction::AGENT_CONFIDENTIAL_APPLY);
const AGENT_CONFIDENTIAL_WITHDRAW: u64 = as_u64(instruction::AGENT_CONFIDENTIAL_WITHDRAW);
const AGENT_CONFIDENTIAL_CLOSE_CONTEXTS: u64 = as_u64(instruction::AGENT_CONFIDENTIAL_CLOSE_CONTEXTS);
const AGENT_CONFIDENTIAL_TRANSFER: u64 = as_u64(instruction::AGENT_CONFIDENTIAL_TRANSFER);
const CONFIDENTIAL_PENDING_APPROVE: u64 = as_u64(instruction::CONFIDENTIAL_PENDING_APPROVE);
const RECEIPT_CLOSE: u64 = as_u64(instruction::RECEIPT_CLOSE);

/// Routes the instruction to its handler by the first 8 bytes of data; anything shorter or
/// unknown is `InvalidInstructionData`. Inlined into the entrypoint, with every other instruction
/// behind one out-of-line call (`process_other`), so the instructions added later do not share a
/// function (and its register allocation) with the hot path (measured: `agent_transfer` 15 CU less).
#[inline(always)]
pub fn process(input: &Input) -> ProgramResult {
    let data = input.data;
    if data.len() < 8 {
        return Err(PolicyError::InvalidInstructionData);
    }
    let discriminator = unsafe { core::ptr::read_unaligned(data.as_ptr() as *const u64) };
    let accounts = input.accounts();
    let program_id = input.program_id;
    // The hot path skips the compare tree the match compiles to.
    if discriminator == AGENT_TRANSFER {
        return instructions::agent_transfer::process(program_id, &accounts, data);
    }
    process_other(discriminator, input)
}

/// Every instruction but `agent_transfer`.
#[inline(never)]
fn process_other(discriminator: u64, input: &Input) -> ProgramResult {
    let data = input.data;
    let accounts = input.accounts();
    let program_id = input.program_id;
    match discriminator {
        PENDING_APPROVE => instructions::pending_approve::process(program_id, &accounts, data),
        TRANSFER_RECORD => instructions::transfer_record::process(program_id, &accounts, data),
        PENDING_REJECT => instructions::pending_reject::process(program_id, &accounts, data),
        PENDING_CLOSE_EXPIRED => instructions::pending_close_expired::process(program_id, &accounts, data),
        POLICY_UPDATE => instructions::policy_update::process(program_id, &accounts, data),
        AGENT_CREATE => instructions::agent_create::process(program_id, &accounts, data),
        HANDLE_REGISTER => instructions::handle_register::process(program_id, &accounts, data),
        CONFIG_INITIALIZE => instructions::config_initialize::process(program_id, &accounts, data),
        AGENT_CONFIDENTIAL_CONFIGURE => {
            instructions::agent_confidential_configure::process(program_id, &accounts, data)
        }
        AGENT_CONFIDENTIAL_DEPOSIT => instructions::agent_confidential_deposit::process(program_id, &accounts, data),
        AGENT_CONFIDENTIAL_APPLY => instructions::agent_confidential_apply::process(program_id, &accounts, data),
        AGENT_CONFIDENTIAL_WITHDRAW => instructions::agent_confidential_withdraw::process(program_id, &accounts, data),
        AGENT_CONFIDENTIAL_CLOSE_CONTEXTS => {
            instructions::agent_confidential_close_contexts::process(program_id, &accounts, data)
        }
        AGENT_CONFIDENTIAL_TRANSFER => instructions::agent_confidential_transfer::process(program_id, &accounts, data),
        CONFIDENTIAL_PENDING_APPROVE => {
            instructions::confidential_pending_approve::process(program_id, &accounts, data)
        }
        RECEIPT_CLOSE => instructions::receipt_close::process(program_id, &accounts, data),
        _ => Err(PolicyError::InvalidInstructionData),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::instructions::test_fixtures::{run, NOON};

    #[test]
    fn short_data_and_unknown_discriminators_are_invalid_instruction_data() {
        assert_eq!(run(vec![], &[], NOON).result, Err(PolicyError::InvalidInstructionData));
        assert_eq!(
            run(vec![], &instruction::AGENT_TRANSFER[..7], NOON).result,
            Err(PolicyError::InvalidInstructionData)
        );
        assert_eq!(
            run(vec![], &[0; 8], NOON).result,
            Err(PolicyError::InvalidInstructionData)
        );
        // An account discriminator is not an instruction
        assert_eq!(
            run(vec![], &crate::discriminator::account::AGENT, NOON).result,
            Err(PolicyError::InvalidInstructionData)
        );
    }

    #[test]
    fn every_instruction_dispatches_and_reports_its_missing_accounts() {
        for discriminator in instruction::ALL {
            let mut data = discriminator.to_vec();
            data.resize(200, 0);
            let result = run(vec![], &data, NOON).result;
            assert!(
                matches!(
                    result,
                    Err(PolicyError::NotEnoughAccounts | PolicyError::InvalidInstructionData)
                ),
                "{discriminator:?}: {result:?}"
            );
        }
    }
}

/**
 * Syscalls the Solana BPF loader (agave `create_program_runtime_environment_v1`, in
 * `syscalls/src/lib.rs`, formerly `programs/bpf_loader/src/syscalls/mod.rs`) registers by name.
 * A call to an undefined symbol links only when its name is here: otherwise the program would
 * deploy in LiteSVM's `addProgram` (which skips verification) and fail at run time, or be
 * rejected by a real deployment with "Unresolved symbol".
 *
 * `gated` syscalls are registered only when their feature is active on the cluster (LiteSVM
 * enables every feature); the build record lists the ones a program uses so a deployer can check
 * the target cluster.
 */
export const SYSCALLS: Readonly<Record<string, "always" | "gated">> = {
  abort: "always",
  sol_panic_: "always",
  sol_log_: "always",
  sol_log_64_: "always",
  sol_log_pubkey: "always",
  sol_log_compute_units_: "always",
  sol_log_data: "always",
  sol_create_program_address: "always",
  sol_try_find_program_address: "always",
  sol_sha256: "always",
  sol_keccak256: "always",
  sol_secp256k1_recover: "always",
  sol_blake3: "gated",
  sol_curve_validate_point: "gated",
  sol_curve_group_op: "gated",
  sol_curve_multiscalar_mul: "gated",
  sol_curve_decompress: "gated",
  sol_curve_pairing_map: "gated",
  sol_get_clock_sysvar: "always",
  sol_get_epoch_schedule_sysvar: "always",
  sol_get_rent_sysvar: "always",
  sol_get_last_restart_slot: "gated",
  sol_get_epoch_rewards_sysvar: "always",
  sol_get_sysvar: "gated",
  sol_get_epoch_stake: "gated",
  sol_memcpy_: "always",
  sol_memmove_: "always",
  sol_memset_: "always",
  sol_memcmp_: "always",
  sol_get_processed_sibling_instruction: "always",
  sol_get_stack_height: "always",
  sol_set_return_data: "always",
  sol_get_return_data: "always",
  sol_invoke_signed_c: "always",
  sol_invoke_signed_rust: "always",
  sol_alt_bn128_group_op: "gated",
  sol_alt_bn128_compression: "gated",
  sol_big_mod_exp: "gated",
  sol_poseidon: "gated",
  sol_remaining_compute_units: "gated",
};

/**
 * Names the loader knows but will not let a new program use: `sol_alloc_free_` is dropped from
 * the deployment environment, and `sol_get_fees_sysvar` is gone since `disable_fees_sysvar`.
 */
export const RETIRED_SYSCALLS: Readonly<Record<string, string>> = {
  sol_alloc_free_:
    "not registered for deployment since disable_deploy_of_alloc_free_syscall; use a bump allocator",
  sol_get_fees_sysvar: "removed by the disable_fees_sysvar feature; use the Rent/Clock sysvars",
};

export function isKnownSyscall(name: string): boolean {
  return Object.hasOwn(SYSCALLS, name);
}

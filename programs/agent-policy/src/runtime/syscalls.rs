//! Syscall declarations. On SBF they are resolved by name by the loader (our linker emits a dynamic
//! relocation per name); on the host they do not exist, and the pure logic tested there never calls
//! them — the host versions abort loudly if a test ever does.

#[cfg(target_arch = "bpf")]
extern "C" {
    pub fn sol_log_(message: *const u8, len: u64);
    pub fn sol_log_data(slices: *const u8, count: u64);
    pub fn sol_create_program_address(seeds: *const u8, seeds_len: u64, program_id: *const u8, out: *mut u8) -> u64;
    pub fn sol_try_find_program_address(
        seeds: *const u8,
        seeds_len: u64,
        program_id: *const u8,
        out: *mut u8,
        bump: *mut u8,
    ) -> u64;
    pub fn sol_invoke_signed_c(
        instruction: *const u8,
        account_infos: *const u8,
        account_infos_len: u64,
        signer_seeds: *const u8,
        signer_seeds_len: u64,
    ) -> u64;
    pub fn sol_get_rent_sysvar(out: *mut u8) -> u64;
    pub fn sol_memcmp_(a: *const u8, b: *const u8, n: u64, result: *mut i32);
    pub fn abort() -> !;
}

#[cfg(not(target_arch = "bpf"))]
mod host {
    fn unavailable(name: &str) -> ! {
        panic!("syscall {name} is only available on-chain")
    }
    pub unsafe fn sol_log_(_message: *const u8, _len: u64) {}
    pub unsafe fn sol_log_data(_slices: *const u8, _count: u64) {}
    pub unsafe fn sol_create_program_address(_: *const u8, _: u64, _: *const u8, _: *mut u8) -> u64 {
        unavailable("sol_create_program_address")
    }
    pub unsafe fn sol_try_find_program_address(_: *const u8, _: u64, _: *const u8, _: *mut u8, _: *mut u8) -> u64 {
        unavailable("sol_try_find_program_address")
    }
    pub unsafe fn sol_invoke_signed_c(_: *const u8, _: *const u8, _: u64, _: *const u8, _: u64) -> u64 {
        unavailable("sol_invoke_signed_c")
    }
    pub unsafe fn sol_get_rent_sysvar(_: *mut u8) -> u64 {
        unavailable("sol_get_rent_sysvar")
    }
    pub unsafe fn abort() -> ! {
        unavailable("abort")
    }
}

#[cfg(not(target_arch = "bpf"))]
pub use host::*;

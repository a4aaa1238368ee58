//! The policy's rules as pure functions over plain values: no accounts, no syscalls. The
//! instructions read account bytes, call these, and act on the answer; the host tests pin every
//! rule at its boundaries. `confidential_limits` is the exception that needs curve syscalls
//! (`runtime::curve`) for its ciphertext arithmetic; its static checks are host-tested too.

pub mod active_hours;
pub mod confidential_limits;
pub mod handle;
pub mod limits;
pub mod policy_validation;
pub mod recipients;

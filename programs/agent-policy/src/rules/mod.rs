//! The policy's rules as pure functions over plain values: no accounts, no syscalls. The
//! instructions read account bytes, call these, and act on the answer; the host tests pin every
//! rule at its boundaries.

pub mod active_hours;
pub mod handle;
pub mod limits;
pub mod policy_validation;
pub mod recipients;

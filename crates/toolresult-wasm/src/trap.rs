//! A deliberate trap, so that tests can prove the wrapper recovers from one.
//! Nothing else here traps on any input; this exists because a bug in a
//! dependency or an allocation failure still could.

use wasm_bindgen::prelude::*;

/// Executes `unreachable`. For tests of trap recovery only.
#[doc(hidden)]
#[wasm_bindgen]
pub fn trap_for_tests() {
    #[cfg(target_arch = "wasm32")]
    core::arch::wasm32::unreachable();
}

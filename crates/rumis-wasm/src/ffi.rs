//! The WebAssembly interface: plain `extern "C"` functions over the module's memory, no
//! generated glue (the one import is the page's clock, `env.rumis_now_ms`, in lib.rs). The caller asks for a buffer (`rumis_alloc`), writes a UTF-8 JSON
//! request into it, and calls `rumis_call`, which frees the request and keeps the answer
//! until the next call; `rumis_answer_ptr` and `rumis_answer_len` say where it is.
//! (`web/src/engine/module.ts` and `web/tests/wasm.test.mjs` are the two callers.)

use std::cell::RefCell;

thread_local! {
    static ANSWER: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// A buffer of `len` bytes for a request.
#[no_mangle]
pub extern "C" fn rumis_alloc(len: usize) -> *mut u8 {
    let mut buf = Vec::<u8>::with_capacity(len.max(1));
    let ptr = buf.as_mut_ptr();
    std::mem::forget(buf);
    ptr
}

/// Answers the request in `ptr[..len]` (a buffer from `rumis_alloc(len)`, freed here).
/// Returns the answer's length.
///
/// # Safety
/// `ptr` must come from `rumis_alloc(len)` and hold `len` initialised bytes.
#[no_mangle]
pub unsafe extern "C" fn rumis_call(ptr: *mut u8, len: usize) -> usize {
    // SAFETY: the caller passes a buffer of rumis_alloc(len), filled.
    let bytes = unsafe { Vec::from_raw_parts(ptr, len, len.max(1)) };
    let answer = match std::str::from_utf8(&bytes) {
        Ok(text) => crate::handle(text),
        Err(_) => r#"{"error":"bad_request","reason":"the request is not UTF-8"}"#.to_string(),
    };
    drop(bytes);
    ANSWER.with(|a| {
        let mut a = a.borrow_mut();
        *a = answer.into_bytes();
        a.len()
    })
}

/// Where the last answer is.
#[no_mangle]
pub extern "C" fn rumis_answer_ptr() -> *const u8 {
    ANSWER.with(|a| a.borrow().as_ptr())
}

/// How long the last answer is.
#[no_mangle]
pub extern "C" fn rumis_answer_len() -> usize {
    ANSWER.with(|a| a.borrow().len())
}

//! The CLI's output: stdout that ends quietly when its reader goes away (`surqlc diff ... | head -3`), stderr that never panics; `main.rs` writes only through these (`out!`, `note!`).
//!
//! Rust ignores SIGPIPE, so a write to a closed pipe returns `BrokenPipe`, on which `print!`
//! panics (exit status 101). Here the first broken pipe closes stdout for the rest of the run:
//! later writes are dropped and the command's own exit status stands.

use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use surqlc::exit::Failure;

/// Set once stdout's reader has gone away.
static STDOUT_CLOSED: AtomicBool = AtomicBool::new(false);

/// Writes `text` to stdout and flushes it. A closed pipe is not an error (the reader has what it
/// wanted); any other write error is (a full disk must not pass for a written report).
pub fn out(text: &str) -> Result<(), Failure> {
    if STDOUT_CLOSED.load(Ordering::Relaxed) {
        return Ok(());
    }
    let mut stdout = io::stdout().lock();
    match stdout.write_all(text.as_bytes()).and_then(|()| stdout.flush()) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => {
            STDOUT_CLOSED.store(true, Ordering::Relaxed);
            Ok(())
        }
        Err(e) => Err(Failure::Failed(format!("error: cannot write to stdout: {e}"))),
    }
}

/// Whether stdout's reader has gone away: a command with more to compute can stop.
pub fn stdout_closed() -> bool {
    STDOUT_CLOSED.load(Ordering::Relaxed)
}

/// Writes `text` and a line break to stderr; a failure to write a message about the run is ignored.
pub fn note(text: &str) {
    let mut stderr = io::stderr().lock();
    let _ = writeln!(stderr, "{text}");
}

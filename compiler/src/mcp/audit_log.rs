//! `surqlc mcp --audit-log FILE` (`-`: stderr): one JSON line per tool call, written whole under one lock and synced before the reply goes out; a log that cannot be written refuses the call (fail closed) and says so on stderr.

use serde::Serialize;
use std::io::Write;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

/// Where the audit lines go.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AuditTarget {
    /// `-`: standard error, each line written whole.
    Stderr,
    /// A file opened for appending (created if missing), each line synced to disk before the reply.
    File(PathBuf),
}

impl AuditTarget {
    /// `-` is stderr, anything else a file path.
    pub fn parse(value: &str) -> AuditTarget {
        if value == "-" {
            AuditTarget::Stderr
        } else {
            AuditTarget::File(value.into())
        }
    }

    fn describe(&self) -> String {
        match self {
            AuditTarget::Stderr => "stderr".into(),
            AuditTarget::File(path) => path.display().to_string(),
        }
    }
}

/// One tool call, as its audit line says it. Field order is the line's order.
#[derive(Debug, Clone, Serialize)]
pub struct Record {
    /// When the call arrived, RFC 3339 in UTC with milliseconds.
    pub ts: String,
    /// Who called: the end user's record id (`--per-user`, `--as`), the bearer token's name
    /// (never the token), `stdio`, or `anonymous` (loopback HTTP without a token).
    pub subject: String,
    /// The MCP session id (`Mcp-Session-Id`), `stdio` on stdio.
    pub session: Option<String>,
    pub tool: String,
    pub question: Option<String>,
    pub query: Option<String>,
    /// `ok`, `refused` (the validator, the reply gate, the engine, a rate limit or a missing
    /// identity said no), or `error` (the call failed: a deadline, the database, a bug).
    pub verdict: &'static str,
    /// The refusal's codes (`SQ0102`, `rate_limited`, ...), empty when none.
    pub codes: Vec<String>,
    /// The rows the answer carried (`run_query`), else null.
    pub rows: Option<usize>,
    /// Whether rows were left out of the answer by the row or byte cap.
    pub truncated: bool,
    pub duration_ms: f64,
    /// What the caller was told when the verdict is not `ok`.
    pub error: Option<String>,
}

/// The log: one writer behind a mutex, so lines of concurrent calls never interleave.
pub struct AuditLog {
    target: AuditTarget,
    /// The open file; `None` until it opens (it is opened again on each call until it does).
    /// Shared, so that a line is synced outside the lock: concurrent calls' syncs overlap
    /// (the file system commits them together) instead of queueing one behind another.
    file: Mutex<Option<Arc<std::fs::File>>>,
}

impl AuditLog {
    /// Opens `target` for appending. A file that cannot be opened is said on stderr; every call
    /// is then refused until it can be (each call tries again).
    pub fn open(target: AuditTarget) -> AuditLog {
        let log = AuditLog {
            target,
            file: Mutex::new(None),
        };
        if let AuditTarget::File(_) = &log.target {
            let mut slot = log.file.lock().unwrap_or_else(|e| e.into_inner());
            if let Err(e) = log.ensure(&mut slot) {
                log.say_down(&e);
            }
        }
        log
    }

    fn ensure(&self, slot: &mut Option<Arc<std::fs::File>>) -> std::io::Result<Arc<std::fs::File>> {
        if slot.is_none() {
            if let AuditTarget::File(path) = &self.target {
                let file = std::fs::OpenOptions::new().create(true).append(true).open(path)?;
                *slot = Some(Arc::new(file));
            }
        }
        slot.clone()
            .ok_or_else(|| std::io::Error::other("the audit log is not a file"))
    }

    fn say_down(&self, e: &std::io::Error) {
        eprintln!(
            "surqlc mcp: error: the audit log {} cannot be written ({e}): every tool call is refused until it can",
            self.target.describe()
        );
    }

    /// Whether a line can be written now (the file is open): checked before a call runs, so
    /// that a log known to be down refuses the call before it does anything.
    pub fn ready(&self) -> Result<(), String> {
        let mut slot = self.file.lock().unwrap_or_else(|e| e.into_inner());
        match &self.target {
            AuditTarget::Stderr => Ok(()),
            AuditTarget::File(_) => self.ensure(&mut slot).map(|_| ()).map_err(|e| self.refusal(&e)),
        }
    }

    fn refusal(&self, e: &std::io::Error) -> String {
        format!(
            "refused: the server's audit log ({}) cannot be written ({e}), and no call is answered \
             without its audit line; tell the server's operator",
            self.target.describe()
        )
    }

    /// Appends `record` as one line (one `write` under the lock, so lines never interleave) and
    /// syncs it (a file: `fdatasync` after the lock is released, so the line outlives a crash of
    /// the process or the machine). The error is the refusal to send instead of the answer.
    pub fn write(&self, record: &Record) -> Result<(), String> {
        let mut line = serde_json::to_string(record).map_err(|e| format!("refused: the audit line: {e}"))?;
        line.push('\n');
        let written = {
            let mut slot = self.file.lock().unwrap_or_else(|e| e.into_inner());
            match &self.target {
                AuditTarget::Stderr => {
                    let mut err = std::io::stderr().lock();
                    err.write_all(line.as_bytes()).and_then(|()| err.flush()).map(|()| None)
                }
                AuditTarget::File(_) => self
                    .ensure(&mut slot)
                    .and_then(|file| (&*file).write_all(line.as_bytes()).map(|()| Some(file))),
            }
        };
        let synced = written.and_then(|file| match file {
            Some(file) => file.sync_data(),
            None => Ok(()),
        });
        synced.map_err(|e| {
            // Opened again on the next call: a log whose disk filled up comes back once it has room.
            *self.file.lock().unwrap_or_else(|e| e.into_inner()) = None;
            self.say_down(&e);
            self.refusal(&e)
        })
    }
}

/// `time` as RFC 3339 in UTC with milliseconds: `2026-12-03T12:53:22.123Z`.
pub fn rfc3339(time: std::time::SystemTime) -> String {
    let since = time.duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
    let secs = since.as_secs();
    let (days, rest) = (secs / 86_400, secs % 86_400);
    let (year, month, day) = crate::utc::civil_from_days(days as i64);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{:03}Z",
        rest / 3600,
        rest % 3600 / 60,
        rest % 60,
        since.subsec_millis()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rfc3339_of_known_instants() {
        let at = |secs: u64, millis: u64| {
            rfc3339(std::time::UNIX_EPOCH + std::time::Duration::from_millis(secs * 1000 + millis))
        };
        assert_eq!(at(0, 0), "1970-01-01T00:00:00.000Z");
        assert_eq!(at(951_782_400, 5), "2000-02-29T00:00:00.005Z");
        assert_eq!(at(1_796_300_002, 999), "2026-12-03T12:13:22.999Z");
    }
}

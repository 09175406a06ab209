//! `/readyz`'s view of schema drift: the definitions the schema leaves, read once at start, against the server's, read again at most every few seconds, so readiness follows a migration without a restart.

use crate::db::Db;
use crate::drift::{compare, definitions, CompareOptions, Definitions, Drift};
use std::time::{Duration, Instant};

/// How long a finding of drift stands before `/readyz` reads the server's definitions again.
const WHILE_DRIFTED: Duration = Duration::from_secs(5);
/// How long a finding of no drift stands (a reread is an `INFO` walk of every table).
const WHILE_IN_SYNC: Duration = Duration::from_secs(60);

/// The schema's definitions and the last comparison with the server's.
pub(super) struct SyncWatch {
    expected: Definitions,
    conn: Db,
    endpoint: String,
    checked: tokio::sync::Mutex<Checked>,
}

struct Checked {
    finding: Option<String>,
    at: Instant,
}

impl SyncWatch {
    /// Compares the server's definitions, read on `conn`, with `expected` and says on stderr what
    /// differs (writes nothing); `None` when the definitions cannot be read (the warning says so).
    pub(super) async fn start(expected: Definitions, conn: Db, endpoint: &str) -> Option<SyncWatch> {
        let mut watch = SyncWatch {
            expected,
            conn,
            endpoint: endpoint.to_owned(),
            checked: tokio::sync::Mutex::new(Checked {
                finding: None,
                at: Instant::now(),
            }),
        };
        let drift = match watch.read().await {
            Ok(drift) => drift,
            Err(e) => {
                eprintln!("warning: drift not checked: cannot read the database's definitions: {e}");
                return None;
            }
        };
        if drift.is_empty() {
            eprintln!("the database at {endpoint} matches the schema");
        } else {
            eprintln!(
                "warning: the database at {endpoint} differs from the schema ({}); serving it as it is, \
                writing nothing (`surqlc diff` lists them, `surreal import` of `surqlc build`'s \
                schema.surql fixes them):\n{drift}",
                differences(&drift)
            );
        }
        watch.checked.get_mut().finding = finding(&drift);
        Some(watch)
    }

    /// The server's definitions, read now, against the schema's.
    async fn read(&self) -> Result<Drift, surrealdb::Error> {
        let live = definitions(&self.conn).await?;
        Ok(compare(
            &self.expected,
            &live,
            CompareOptions { ignore_passhash: false },
        ))
    }

    /// Why the database is not in sync with the schema, read again when the last reading is older
    /// than its standing time (a failed reread keeps the last finding).
    pub(super) async fn finding(&self) -> Option<String> {
        let mut checked = self.checked.lock().await;
        let stands = if checked.finding.is_some() {
            WHILE_DRIFTED
        } else {
            WHILE_IN_SYNC
        };
        if checked.at.elapsed() >= stands {
            if let Ok(drift) = self.read().await {
                let now = finding(&drift);
                match (&checked.finding, &now) {
                    (Some(_), None) => eprintln!("the database at {} now matches the schema", self.endpoint),
                    (None, Some(_)) => eprintln!(
                        "warning: the database at {} now differs from the schema ({}):\n{drift}",
                        self.endpoint,
                        differences(&drift)
                    ),
                    _ => {}
                }
                checked.finding = now;
            }
            checked.at = Instant::now();
        }
        checked.finding.clone()
    }
}

fn differences(drift: &Drift) -> String {
    let n = drift.changes.len();
    format!("{n} difference{}", if n == 1 { "" } else { "s" })
}

/// `/readyz`'s reason, `None` in sync.
fn finding(drift: &Drift) -> Option<String> {
    (!drift.is_empty()).then(|| {
        format!(
            "the database differs from the schema ({}; `surqlc diff` lists them)",
            differences(drift)
        )
    })
}

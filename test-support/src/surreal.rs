//! `surreal start` for the tests that need a real server: the `SURREAL_BIN` binary (3.3; `bash .ci/build-surreal` builds one) in memory with root/root on a free local port, `surreal import` into it, stopped when dropped. The tests that use it are `#[ignore]`d with the reason; run without `SURREAL_BIN` they fail saying how to get one.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A running `surreal start`; killed when dropped, however the test ends.
pub struct SurrealServer {
    /// The `surreal` binary (for `surreal import`, `surreal sql`).
    pub bin: PathBuf,
    pub port: u16,
    child: Child,
}

impl SurrealServer {
    /// Starts `SURREAL_BIN` and returns once it listens (within 30 seconds).
    pub fn start() -> SurrealServer {
        let bin = std::env::var_os("SURREAL_BIN").map(PathBuf::from).expect(
            "set SURREAL_BIN to a surreal 3.3 binary (SURREAL_BIN=$(bash .ci/build-surreal)) to run the server tests",
        );
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .map(|a| a.port())
            .expect("a free port");
        let child = Command::new(&bin)
            .args(["start", "--user", "root", "--pass", "root", "--bind"])
            .arg(format!("127.0.0.1:{port}"))
            .arg("memory")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("surreal start runs");
        let server = SurrealServer { bin, port, child };
        let deadline = Instant::now() + Duration::from_secs(30);
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(Instant::now() < deadline, "surreal did not start listening");
            std::thread::sleep(Duration::from_millis(100));
        }
        server
    }

    /// `ws://127.0.0.1:PORT`, the endpoint the tests connect to.
    pub fn ws(&self) -> String {
        format!("ws://127.0.0.1:{}", self.port)
    }

    /// `surreal import` of `file` as root into namespace `ai`, database `database`; panics if it fails.
    pub fn import(&self, database: &str, file: &Path) {
        let status = Command::new(&self.bin)
            .args(["import", "--endpoint"])
            .arg(format!("http://127.0.0.1:{}", self.port))
            .args([
                "--user", "root", "--pass", "root", "--ns", "ai", "--db", database,
            ])
            .arg(file)
            .status()
            .expect("surreal import runs");
        assert!(status.success(), "surreal import {} failed", file.display());
    }
}

impl Drop for SurrealServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

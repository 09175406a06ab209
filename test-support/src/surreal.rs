//! `surreal start` for the tests that need a real server: the `SURREAL_BIN` binary (3.3; `bash .ci/build-surreal` builds one) in memory (or on `surrealkv://`, restartable) with root/root on a free local port, `surreal import` into it, stopped when dropped. The tests that use it are `#[ignore]`d with the reason; run without `SURREAL_BIN` they fail saying how to get one.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A running `surreal start`; killed when dropped, however the test ends.
pub struct SurrealServer {
    /// The `surreal` binary (for `surreal import`, `surreal sql`).
    pub bin: PathBuf,
    pub port: u16,
    /// What it stores to: `memory`, or `surrealkv://PATH` (kept across [`Self::restart`]).
    storage: String,
    child: Child,
}

impl SurrealServer {
    /// Starts `SURREAL_BIN` in memory and returns once it listens (within 30 seconds).
    pub fn start() -> SurrealServer {
        SurrealServer::start_with("memory")
    }

    /// Starts `SURREAL_BIN` on `storage` (`memory`, `surrealkv://PATH`) on a free port.
    pub fn start_with(storage: &str) -> SurrealServer {
        let bin = std::env::var_os("SURREAL_BIN").map(PathBuf::from).expect(
            "set SURREAL_BIN to a surreal 3.3 binary (SURREAL_BIN=$(bash .ci/build-surreal)) to run the server tests",
        );
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .map(|a| a.port())
            .expect("a free port");
        let child = spawn(&bin, port, storage);
        let server = SurrealServer {
            bin,
            port,
            storage: storage.to_owned(),
            child,
        };
        server.wait_listening();
        server
    }

    /// Kills the server (as a crash would) and leaves it down until [`Self::restart`].
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// Starts it again on the same port and storage (after [`Self::kill`]).
    pub fn restart(&mut self) {
        self.kill();
        self.child = spawn(&self.bin, self.port, &self.storage);
        self.wait_listening();
    }

    fn wait_listening(&self) {
        let deadline = Instant::now() + Duration::from_secs(30);
        while std::net::TcpStream::connect(("127.0.0.1", self.port)).is_err() {
            assert!(Instant::now() < deadline, "surreal did not start listening");
            std::thread::sleep(Duration::from_millis(100));
        }
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
            .args(["--user", "root", "--pass", "root", "--ns", "ai", "--db", database])
            .arg(file)
            .status()
            .expect("surreal import runs");
        assert!(status.success(), "surreal import {} failed", file.display());
    }
}

fn spawn(bin: &Path, port: u16, storage: &str) -> Child {
    Command::new(bin)
        .args(["start", "--user", "root", "--pass", "root", "--bind"])
        .arg(format!("127.0.0.1:{port}"))
        .arg(storage)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("surreal start runs")
}

impl Drop for SurrealServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

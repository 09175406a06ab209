//! Unguessable strings for one process: the embedded engine's agent password for a run, and the MCP
//! server's per-answer untrusted-data nonce should the OS CSPRNG fail.

use std::hash::{BuildHasher, Hasher};

/// `words` × 64 bits as lowercase hex (16 characters a word), from the standard library's random
/// hasher keys (seeded from the operating system once per thread, then stepped for each new
/// hasher) over a counter and the clock: no two calls in a process give the same string, and
/// nobody outside the process can predict one.
#[cfg_attr(not(any(feature = "codegen", feature = "mcp")), allow(dead_code))] // schema_db's and mcp's
pub(crate) fn random_hex(words: u8) -> String {
    let mut out = String::with_capacity(16 * words as usize);
    for i in 0..words {
        let mut h = std::collections::hash_map::RandomState::new().build_hasher();
        h.write_u8(i);
        h.write_u128(
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos()),
        );
        out.push_str(&format!("{:016x}", h.finish()));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::random_hex;

    #[test]
    fn each_string_is_fresh_hex_of_the_asked_length() {
        let seen: std::collections::HashSet<String> = (0..1000).map(|_| random_hex(2)).collect();
        assert_eq!(seen.len(), 1000);
        assert!(seen
            .iter()
            .all(|s| s.len() == 32 && s.bytes().all(|b| b.is_ascii_hexdigit())));
        assert_eq!(random_hex(1).len(), 16);
    }
}

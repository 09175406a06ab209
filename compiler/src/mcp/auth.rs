//! Who may talk to `surqlc mcp --http`: a bearer token (`--token-file FILE` or `SURQLC_MCP_TOKEN`)
//! that every request must carry, compared in constant time and never logged; an address other
//! than loopback is refused without one. The `Host` names accepted (rmcp's DNS-rebinding check).

use crate::exit::Failure;
use std::net::SocketAddr;
use std::path::Path;
use std::sync::Arc;

/// The environment variable that holds the token when `--token-file` is not given.
pub const TOKEN_ENV: &str = "SURQLC_MCP_TOKEN";

/// The bearer token HTTP requests must carry. Its `Debug` never shows it.
#[derive(Clone)]
pub struct Token(Arc<[u8]>);

impl std::fmt::Debug for Token {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Token(<redacted>)")
    }
}

impl Token {
    /// A token of visible ASCII without spaces (what an `Authorization` header carries), at
    /// least 16 characters. The error never repeats the token.
    pub fn new(token: &str) -> Result<Token, String> {
        let token = token.trim();
        if token.is_empty() {
            return Err("the token is empty".into());
        }
        if !token.bytes().all(|b| b.is_ascii_graphic()) {
            return Err("the token must be visible ASCII characters without spaces".into());
        }
        if token.len() < 16 {
            return Err(format!(
                "the token has {} characters; use at least 16 (e.g. `openssl rand -hex 32`)",
                token.len()
            ));
        }
        Ok(Token(token.as_bytes().into()))
    }

    /// The configured token: the first line of `file` when given, else `SURQLC_MCP_TOKEN` when
    /// set; `None` when neither. A file that cannot be read, or a bad token, is bad input.
    pub fn configured(file: Option<&Path>) -> Result<Option<Token>, Failure> {
        let (from, token) = match file {
            Some(file) => {
                let read = std::fs::read_to_string(file).map_err(|e| {
                    Failure::BadInput(format!("error: cannot read the token file {}: {e}", file.display()))
                })?;
                (
                    format!("the token file {}", file.display()),
                    read.lines().next().unwrap_or_default().to_owned(),
                )
            }
            None => match std::env::var(TOKEN_ENV) {
                Ok(token) => (TOKEN_ENV.to_owned(), token),
                Err(std::env::VarError::NotPresent) => return Ok(None),
                Err(std::env::VarError::NotUnicode(_)) => {
                    return Err(Failure::BadInput(format!(
                        "error: {TOKEN_ENV}: the token must be visible ASCII characters without spaces"
                    )))
                }
            },
        };
        Token::new(&token)
            .map(Some)
            .map_err(|e| Failure::BadInput(format!("error: {from}: {e}")))
    }

    /// Whether an `Authorization` header value is `Bearer <this token>` (the scheme in any
    /// case). The comparison takes the same time whatever the token and however much of it
    /// matches: the offered value is brought to the token's length first, and the lengths are
    /// compared in constant time too.
    pub fn accepts(&self, authorization: Option<&[u8]>) -> bool {
        use subtle::ConstantTimeEq;
        let Some(value) = authorization else {
            return false;
        };
        let Some(offered) = bearer(value) else {
            return false;
        };
        let expected: &[u8] = &self.0;
        let mut padded = vec![0u8; expected.len()];
        let n = offered.len().min(expected.len());
        padded[..n].copy_from_slice(&offered[..n]);
        let same_length = (offered.len() as u64).ct_eq(&(expected.len() as u64));
        (padded.as_slice().ct_eq(expected) & same_length).into()
    }
}

/// The credentials of `Bearer <credentials>` (the scheme in any case, RFC 9110 §11.1).
pub(super) fn bearer(value: &[u8]) -> Option<&[u8]> {
    let value = value.trim_ascii();
    let (scheme, rest) = value.split_at(value.iter().position(|b| *b == b' ')?);
    scheme.eq_ignore_ascii_case(b"bearer").then(|| rest.trim_ascii())
}

/// Refuses to serve `bound` (a non-loopback address) without a token: one line, bad input.
pub(super) fn check(bound: SocketAddr, token: Option<&Token>) -> Result<(), Failure> {
    if token.is_some() || bound.ip().is_loopback() {
        return Ok(());
    }
    Err(Failure::BadInput(format!(
        "error: --http {bound} is reachable from other machines: set {TOKEN_ENV} or --token-file FILE to a \
            bearer token every request must carry (or bind a loopback address such as 127.0.0.1)"
    )))
}

/// The `Host` names rmcp accepts (its DNS-rebinding check). On loopback, the loopback names
/// (rmcp's default) and `extra`. On another address, those, the address itself and `extra`; on
/// an unspecified one (`0.0.0.0`, `[::]`) without `extra`, any name the machine is reached by
/// (the token is what guards it then).
pub(super) fn allowed_hosts(bound: SocketAddr, extra: &[String]) -> Vec<String> {
    let ip = bound.ip();
    if ip.is_unspecified() && extra.is_empty() {
        return Vec::new();
    }
    let mut hosts: Vec<String> = ["localhost", "127.0.0.1", "::1"]
        .into_iter()
        .map(String::from)
        .collect();
    if !ip.is_loopback() && !ip.is_unspecified() {
        hosts.push(ip.to_string());
    }
    hosts.extend(extra.iter().cloned());
    hosts
}

#[cfg(test)]
mod tests {
    use super::*;

    fn token() -> Token {
        Token::new("0123456789abcdef-secret").unwrap()
    }

    #[test]
    fn only_the_exact_bearer_token_is_accepted() {
        let t = token();
        assert!(t.accepts(Some(b"Bearer 0123456789abcdef-secret")));
        assert!(t.accepts(Some(b"bearer  0123456789abcdef-secret ")));
        for wrong in [
            &b"Bearer 0123456789abcdef-secreT"[..],
            b"Bearer 0123456789abcdef-secret2",
            b"Bearer 0123456789abcdef-secre",
            b"Bearer ",
            b"Basic 0123456789abcdef-secret",
            b"0123456789abcdef-secret",
            b"",
        ] {
            assert!(!t.accepts(Some(wrong)), "{}", String::from_utf8_lossy(wrong));
        }
        assert!(!t.accepts(None));
    }

    #[test]
    fn a_bad_token_is_refused_without_repeating_it_and_debug_hides_it() {
        for bad in ["", "   ", "short", "has a space in it ok", "é-0123456789abcdef"] {
            let e = Token::new(bad).unwrap_err();
            assert!(bad.trim().is_empty() || !e.contains(bad.trim()), "{e}");
        }
        assert_eq!(format!("{:?}", token()), "Token(<redacted>)");
    }

    #[test]
    fn a_non_loopback_address_needs_a_token() {
        let lo: SocketAddr = "127.0.0.1:8765".parse().unwrap();
        let lo6: SocketAddr = "[::1]:8765".parse().unwrap();
        let any: SocketAddr = "0.0.0.0:8765".parse().unwrap();
        assert!(check(lo, None).is_ok() && check(lo6, None).is_ok());
        let e = check(any, None).unwrap_err().to_string();
        assert!(
            e.contains(TOKEN_ENV) && e.contains("--token-file") && !e.contains('\n'),
            "{e}"
        );
        assert!(check(any, Some(&token())).is_ok());
    }

    #[test]
    fn hosts_follow_the_address() {
        let lo: SocketAddr = "127.0.0.1:1".parse().unwrap();
        assert_eq!(allowed_hosts(lo, &[]), ["localhost", "127.0.0.1", "::1"]);
        let lan: SocketAddr = "10.0.0.5:1".parse().unwrap();
        assert_eq!(
            allowed_hosts(lan, &["mcp.internal".into()]),
            ["localhost", "127.0.0.1", "::1", "10.0.0.5", "mcp.internal"]
        );
        let any: SocketAddr = "0.0.0.0:1".parse().unwrap();
        assert!(allowed_hosts(any, &[]).is_empty());
        assert_eq!(allowed_hosts(any, &["mcp.internal".into()]).len(), 4);
    }
}

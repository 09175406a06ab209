//! Whether a server endpoint answers at all: a TCP connect with a short deadline before each call, so that a call while the server is down fails at once with a clear tool error instead of waiting out its deadline (the client reconnects by itself once the server is back).

use std::time::Duration;

/// How long the connect may take before the server counts as down.
const PROBE: Duration = Duration::from_secs(2);

/// `host:port` of a `ws://`, `wss://`, `http://` or `https://` endpoint (the scheme's port when
/// none is given); `None` for the embedded engine or anything else.
pub(super) fn address(endpoint: &str) -> Option<String> {
    let (rest, default_port) = if let Some(rest) = endpoint.strip_prefix("ws://") {
        (rest, 80)
    } else if let Some(rest) = endpoint.strip_prefix("http://") {
        (rest, 80)
    } else if let Some(rest) = endpoint.strip_prefix("wss://") {
        (rest, 443)
    } else if let Some(rest) = endpoint.strip_prefix("https://") {
        (rest, 443)
    } else {
        return None;
    };
    let authority = rest.split('/').next().unwrap_or(rest);
    let authority = authority.rsplit('@').next().unwrap_or(authority);
    if authority.is_empty() {
        return None;
    }
    // `host:port`, `[v6]:port`, or a host alone.
    let has_port = match authority.rfind(']') {
        Some(close) => authority[close..].contains(':'),
        None => authority.contains(':'),
    };
    Some(if has_port {
        authority.to_owned()
    } else {
        format!("{authority}:{default_port}")
    })
}

/// `Err(message)` when nothing accepts a connection at `address` within [`PROBE`].
pub(super) async fn check(endpoint: &str, address: &str) -> Result<(), String> {
    let down = |why: String| {
        format!(
            "the database at {endpoint} does not answer ({why}): nothing was run; surqlc mcp reconnects by \
                itself once it is back, so call again shortly"
        )
    };
    match tokio::time::timeout(PROBE, tokio::net::TcpStream::connect(address)).await {
        Ok(Ok(_)) => Ok(()),
        Ok(Err(e)) => Err(down(e.to_string())),
        Err(_) => Err(down(format!("no connection within {PROBE:?}"))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn endpoints_give_their_address() {
        assert_eq!(address("ws://127.0.0.1:8000").as_deref(), Some("127.0.0.1:8000"));
        assert_eq!(
            address("wss://db.example.com/rpc").as_deref(),
            Some("db.example.com:443")
        );
        assert_eq!(address("ws://[::1]:9000/").as_deref(), Some("[::1]:9000"));
        assert_eq!(address("http://[::1]").as_deref(), Some("[::1]:80"));
        assert_eq!(address("mem://"), None);
        assert_eq!(address("ws://"), None);
    }

    #[test]
    fn a_closed_port_is_said_at_once() {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .map(|a| a.port())
            .unwrap();
        let runtime = tokio::runtime::Runtime::new().unwrap();
        let said = runtime
            .block_on(check("ws://127.0.0.1", &format!("127.0.0.1:{port}")))
            .unwrap_err();
        assert!(
            said.contains("does not answer") && said.contains("call again shortly"),
            "{said}"
        );
    }
}

//! The one HTTP request the orchestrator makes of a server: `GET /metrics`, over
//! HTTP/1.0 (the server answers with the whole body and closes), with a timeout and a
//! size limit.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::Duration;

/// The largest response read (a scrape is a few kilobytes).
const MAX_RESPONSE: u64 = 16 << 20;

/// `GET path` from `addr`: the body of a 200 response.
pub fn get(addr: SocketAddr, path: &str, timeout: Duration) -> Result<String, String> {
    let mut stream =
        TcpStream::connect_timeout(&addr, timeout).map_err(|e| format!("{addr}: {e}"))?;
    stream
        .set_read_timeout(Some(timeout))
        .and_then(|()| stream.set_write_timeout(Some(timeout)))
        .map_err(|e| format!("{addr}: {e}"))?;
    write!(stream, "GET {path} HTTP/1.0\r\nHost: {addr}\r\n\r\n")
        .map_err(|e| format!("{addr}: {e}"))?;
    let mut raw = Vec::new();
    stream
        .take(MAX_RESPONSE + 1)
        .read_to_end(&mut raw)
        .map_err(|e| format!("GET http://{addr}{path}: {e}"))?;
    if raw.len() as u64 > MAX_RESPONSE {
        return Err(format!(
            "GET http://{addr}{path}: more than {MAX_RESPONSE} bytes"
        ));
    }
    parse_response(&raw).map_err(|e| format!("GET http://{addr}{path}: {e}"))
}

/// The body of a raw HTTP/1.x response with status 200 and no transfer encoding.
fn parse_response(raw: &[u8]) -> Result<String, String> {
    let end = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .ok_or("no end of headers")?;
    let head = std::str::from_utf8(&raw[..end]).map_err(|_| "headers are not UTF-8")?;
    let status = head.lines().next().unwrap_or("");
    let code = status.split_whitespace().nth(1).unwrap_or("");
    if !status.starts_with("HTTP/1.") || code != "200" {
        return Err(format!("status line {status:?}"));
    }
    if head
        .lines()
        .any(|l| l.to_ascii_lowercase().starts_with("transfer-encoding:"))
    {
        return Err("a transfer-encoded body (the server should answer HTTP/1.0 plainly)".into());
    }
    String::from_utf8(raw[end + 4..].to_vec()).map_err(|_| "the body is not UTF-8".into())
}

#[cfg(test)]
mod tests {
    use super::parse_response;

    #[test]
    fn responses() {
        let ok = b"HTTP/1.0 200 OK\r\ncontent-type: text/plain\r\n\r\nsim_ticks_total 1\n";
        assert_eq!(parse_response(ok).unwrap(), "sim_ticks_total 1\n");
        assert!(parse_response(b"HTTP/1.1 404 Not Found\r\n\r\n")
            .unwrap_err()
            .contains("404"));
        assert!(parse_response(b"HTTP/1.1 200 OK\r\n").is_err());
        let chunked =
            b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n";
        assert!(parse_response(chunked)
            .unwrap_err()
            .contains("transfer-encoded"));
    }
}

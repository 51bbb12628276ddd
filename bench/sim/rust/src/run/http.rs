//! HTTP GET over HTTP/1.0 (the server answers with the whole body and closes), with a
//! timeout and a size limit: the orchestrator's scrapes of `/metrics`, and the server
//! tests' requests.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::Duration;

/// The largest response read (a scrape is a few kilobytes).
const MAX_RESPONSE: u64 = 16 << 20;

/// A response: its status line, its headers (lowercased) and its body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Response {
    /// `HTTP/1.1 200 OK`.
    pub status: String,
    /// The header lines, lowercased.
    pub headers: String,
    /// The body (never transfer-encoded: requests are HTTP/1.0).
    pub body: String,
}

/// `GET path` from `addr` with an optional `Accept` header: whatever the status.
pub fn request(
    addr: SocketAddr,
    path: &str,
    accept: Option<&str>,
    timeout: Duration,
) -> Result<Response, String> {
    let what = format!("GET http://{addr}{path}");
    let mut stream =
        TcpStream::connect_timeout(&addr, timeout).map_err(|e| format!("{what}: {e}"))?;
    stream
        .set_read_timeout(Some(timeout))
        .and_then(|()| stream.set_write_timeout(Some(timeout)))
        .map_err(|e| format!("{what}: {e}"))?;
    let accept = accept
        .map(|a| format!("Accept: {a}\r\n"))
        .unwrap_or_default();
    write!(
        stream,
        "GET {path} HTTP/1.0\r\nHost: {addr}\r\n{accept}\r\n"
    )
    .map_err(|e| format!("{what}: {e}"))?;
    let mut raw = Vec::new();
    stream
        .take(MAX_RESPONSE + 1)
        .read_to_end(&mut raw)
        .map_err(|e| format!("{what}: {e}"))?;
    if raw.len() as u64 > MAX_RESPONSE {
        return Err(format!("{what}: more than {MAX_RESPONSE} bytes"));
    }
    parse_response(&raw).map_err(|e| format!("{what}: {e}"))
}

/// `GET path` from `addr`: the body of a 200 response.
pub fn get(addr: SocketAddr, path: &str, timeout: Duration) -> Result<String, String> {
    let r = request(addr, path, None, timeout)?;
    let code = r.status.split_whitespace().nth(1).unwrap_or("");
    if code == "200" {
        Ok(r.body)
    } else {
        Err(format!(
            "GET http://{addr}{path}: status line {:?}",
            r.status
        ))
    }
}

/// A raw HTTP/1.x response without a transfer encoding.
fn parse_response(raw: &[u8]) -> Result<Response, String> {
    let end = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .ok_or("no end of headers")?;
    let head = std::str::from_utf8(&raw[..end]).map_err(|_| "headers are not UTF-8")?;
    let (status, headers) = head.split_once("\r\n").unwrap_or((head, ""));
    if !status.starts_with("HTTP/1.") {
        return Err(format!("status line {status:?}"));
    }
    let headers = headers.to_ascii_lowercase();
    if headers.lines().any(|l| l.starts_with("transfer-encoding:")) {
        return Err("a transfer-encoded body (the server should answer HTTP/1.0 plainly)".into());
    }
    let body = String::from_utf8(raw[end + 4..].to_vec()).map_err(|_| "the body is not UTF-8")?;
    Ok(Response {
        status: status.to_string(),
        headers,
        body,
    })
}

#[cfg(test)]
mod tests {
    use super::parse_response;

    #[test]
    fn responses() {
        let ok = b"HTTP/1.0 200 OK\r\ncontent-type: text/plain\r\n\r\nsim_ticks_total 1\n";
        let r = parse_response(ok).unwrap();
        assert_eq!(r.body, "sim_ticks_total 1\n");
        assert_eq!(r.headers, "content-type: text/plain");
        let missing = parse_response(b"HTTP/1.1 404 Not Found\r\n\r\n").unwrap();
        assert_eq!(missing.status, "HTTP/1.1 404 Not Found");
        assert!(parse_response(b"SSH-2.0\r\n\r\n").is_err());
        assert!(parse_response(b"HTTP/1.1 200 OK\r\n").is_err());
        let chunked =
            b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n";
        assert!(parse_response(chunked)
            .unwrap_err()
            .contains("transfer-encoded"));
    }
}

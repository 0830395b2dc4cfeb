//! HTTP: one kept-alive connection per game slot.

use std::net::SocketAddr;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use crate::REQUEST_TIMEOUT;

pub struct Http {
    addr: SocketAddr,
    conn: Option<TcpStream>,
    buf: Vec<u8>,
}

impl Http {
    pub fn new(addr: SocketAddr) -> Http {
        Http {
            addr,
            conn: None,
            buf: Vec::with_capacity(4096),
        }
    }

    /// One request; a connection the server closed (idle) is made again and the request
    /// sent again once (moves are safe to send again).
    pub async fn request(
        &mut self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: &str,
    ) -> Result<(u16, Vec<u8>), String> {
        let mut head = format!("{method} {path} HTTP/1.1\r\nHost: {}\r\n", self.addr);
        if let Some(t) = token {
            head.push_str("Authorization: Bearer ");
            head.push_str(t);
            head.push_str("\r\n");
        }
        if method == "POST" {
            head.push_str(&format!(
                "Content-Type: application/json\r\nContent-Length: {}\r\n",
                body.len()
            ));
        }
        head.push_str("\r\n");
        head.push_str(body);
        let mut last = String::new();
        for _ in 0..2 {
            match tokio::time::timeout(REQUEST_TIMEOUT, self.exchange(head.as_bytes())).await {
                Ok(Ok(r)) => return Ok(r),
                Ok(Err(e)) => last = e.to_string(),
                Err(_) => {
                    self.conn = None;
                    return Err("timed out".into());
                }
            }
            self.conn = None;
        }
        Err(last)
    }

    async fn exchange(&mut self, request: &[u8]) -> std::io::Result<(u16, Vec<u8>)> {
        if self.conn.is_none() {
            let s = TcpStream::connect(self.addr).await?;
            s.set_nodelay(true)?;
            self.conn = Some(s);
        }
        let conn = self.conn.as_mut().unwrap();
        conn.write_all(request).await?;
        self.buf.clear();
        let bad = |m: &str| std::io::Error::new(std::io::ErrorKind::InvalidData, m.to_string());
        let mut chunk = [0u8; 4096];
        let end = loop {
            if let Some(p) = self.buf.windows(4).position(|w| w == b"\r\n\r\n") {
                break p;
            }
            let n = conn.read(&mut chunk).await?;
            if n == 0 {
                return Err(std::io::Error::new(std::io::ErrorKind::UnexpectedEof, "closed"));
            }
            self.buf.extend_from_slice(&chunk[..n]);
        };
        let head = std::str::from_utf8(&self.buf[..end]).map_err(|_| bad("head not UTF-8"))?;
        let status: u16 = head
            .split_whitespace()
            .nth(1)
            .and_then(|s| s.parse().ok())
            .ok_or_else(|| bad("no status"))?;
        let mut length = None;
        let mut close = false;
        for line in head.split("\r\n").skip(1) {
            if let Some((k, v)) = line.split_once(':') {
                if k.eq_ignore_ascii_case("content-length") {
                    length = v.trim().parse::<usize>().ok();
                } else if k.eq_ignore_ascii_case("connection") && v.trim().eq_ignore_ascii_case("close") {
                    close = true;
                }
            }
        }
        let length = length.ok_or_else(|| bad("no content-length"))?;
        let start = end + 4;
        while self.buf.len() < start + length {
            let n = conn.read(&mut chunk).await?;
            if n == 0 {
                return Err(std::io::Error::new(std::io::ErrorKind::UnexpectedEof, "short body"));
            }
            self.buf.extend_from_slice(&chunk[..n]);
        }
        let body = self.buf[start..start + length].to_vec();
        if close {
            self.conn = None;
        }
        Ok((status, body))
    }
}

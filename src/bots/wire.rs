//! The load generator's own HTTP/1.1 connections, for the calls it makes on every order.
//!
//! The reference bot talks through reqwest, as most bot authors would. The load generator
//! shares its machine with the server it measures, and reqwest's per-request work (parsing
//! the URL, a header map, its pool's bookkeeping, a timer for the timeout) was a large part of
//! the generator's CPU: CPU the server then did not have. Here each request is written on a
//! kept-alive connection taken from a plain stack of idle ones, and nothing else.

use std::sync::Mutex;

use axum::body::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::client::conn::http1::{self, SendRequest};
use hyper::header::{AUTHORIZATION, CONTENT_TYPE, HOST, HeaderValue};
use hyper::{Method, Request};
use hyper_util::rt::TokioIo;
use tokio::net::TcpStream;

use super::client::ClientError;

/// Kept-alive connections to one server. The caller bounds how many requests run at once;
/// there are never more connections than that.
pub struct Wire {
    address: String,
    host: HeaderValue,
    idle: Mutex<Vec<SendRequest<Full<Bytes>>>>,
}

impl Wire {
    /// Connections to the server at `base` (`http://host:port`; no TLS, no path).
    pub fn new(base: &str) -> Result<Wire, ClientError> {
        let address = base
            .trim_end_matches('/')
            .strip_prefix("http://")
            .filter(|a| !a.is_empty() && !a.contains('/'))
            .ok_or_else(|| {
                ClientError::transport(format!("not an http://host:port URL: {base}"))
            })?;
        let host = HeaderValue::from_str(address).map_err(ClientError::transport)?;
        Ok(Wire {
            address: address.to_string(),
            host,
            idle: Mutex::new(Vec::new()),
        })
    }

    /// GET `path`: the body of a successful response.
    pub async fn get(&self, path: &str, token: Option<&str>) -> Result<Bytes, ClientError> {
        self.call(Method::GET, path, token, None).await
    }

    /// POST `body` (JSON text) to `path`: the body of a successful response.
    pub async fn post(&self, path: &str, token: &str, body: Vec<u8>) -> Result<Bytes, ClientError> {
        self.call(Method::POST, path, Some(token), Some(body)).await
    }

    async fn call(
        &self,
        method: Method,
        path: &str,
        token: Option<&str>,
        body: Option<Vec<u8>>,
    ) -> Result<Bytes, ClientError> {
        // The server closes a connection that sat idle past its idle timeout: skip those.
        let idle = {
            let mut idle = self.idle.lock().unwrap_or_else(|e| e.into_inner());
            std::iter::from_fn(|| idle.pop()).find(|sender| !sender.is_closed())
        };
        let reused = idle.is_some();
        let mut sender = match idle {
            Some(sender) => sender,
            None => self.connect().await?,
        };
        let mut request = Request::builder()
            .method(method)
            .uri(path)
            .header(HOST, self.host.clone());
        if let Some(token) = token {
            request = request.header(AUTHORIZATION, format!("Bearer {token}"));
        }
        if body.is_some() {
            request = request.header(CONTENT_TYPE, "application/json");
        }
        let request = request
            .body(Full::new(Bytes::from(body.unwrap_or_default())))
            .map_err(ClientError::transport)?;
        // A kept connection the server has just closed fails here, before anything was sent:
        // open another once. A fresh connection that fails is the caller's error.
        if sender.ready().await.is_err() && reused {
            sender = self.connect().await?;
        }
        sender.ready().await.map_err(ClientError::transport)?;
        let response = sender
            .send_request(request)
            .await
            .map_err(ClientError::transport)?;
        let status = response.status();
        let bytes = response
            .into_body()
            .collect()
            .await
            .map_err(ClientError::transport)?
            .to_bytes();
        self.idle
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(sender);
        if status.is_success() {
            Ok(bytes)
        } else {
            Err(ClientError::from_response(status.as_u16(), &bytes))
        }
    }

    async fn connect(&self) -> Result<SendRequest<Full<Bytes>>, ClientError> {
        let stream = TcpStream::connect(&self.address)
            .await
            .map_err(ClientError::transport)?;
        stream.set_nodelay(true).map_err(ClientError::transport)?;
        let (sender, connection) = http1::handshake(TokioIo::new(stream))
            .await
            .map_err(ClientError::transport)?;
        // The connection runs until the server closes it or its last sender is dropped.
        tokio::spawn(connection);
        Ok(sender)
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    #[test]
    fn only_a_plain_http_host_and_port_is_a_base() {
        assert!(Wire::new("http://127.0.0.1:3000").is_ok());
        assert!(Wire::new("http://127.0.0.1:3000/").is_ok());
        assert!(Wire::new("https://example.org").is_err());
        assert!(Wire::new("http://example.org/herald").is_err());
        assert!(Wire::new("http://").is_err());
    }

    /// A server on loopback that answers the first request on each connection with `[]` and
    /// then closes it, as a server does once a kept connection sat idle past its timeout.
    async fn closing_after_one_answer() -> String {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        tokio::spawn(async move {
            loop {
                let (mut stream, _) = listener.accept().await.unwrap();
                tokio::spawn(async move {
                    let mut read = Vec::new();
                    let mut buffer = [0u8; 1024];
                    while !read.windows(4).any(|w| w == b"\r\n\r\n") {
                        match stream.read(&mut buffer).await {
                            Ok(0) | Err(_) => return,
                            Ok(n) => read.extend_from_slice(&buffer[..n]),
                        }
                    }
                    let answer = "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n\
                                  content-length: 2\r\n\r\n[]";
                    let _ = stream.write_all(answer.as_bytes()).await;
                });
            }
        });
        base
    }

    #[tokio::test]
    async fn a_kept_connection_the_server_closed_for_idleness_is_replaced() {
        let base = closing_after_one_answer().await;
        let wire = Wire::new(&base).unwrap();
        wire.get("/api/v1/lobbies", None).await.unwrap();
        let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
        while !wire.idle.lock().unwrap().iter().all(|s| s.is_closed()) {
            assert!(tokio::time::Instant::now() < deadline, "never closed");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        assert_eq!(&wire.get("/api/v1/lobbies", None).await.unwrap()[..], b"[]");
    }
}

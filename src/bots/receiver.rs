//! A webhook receiver for the load generator (`herald load --webhooks`): an HTTP server on
//! 127.0.0.1 that answers every delivery 204 and counts them, so that a load run can measure
//! the server with a webhook on every lobby (docs/performance.md).

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use axum::Router;
use axum::extract::State;
use axum::http::StatusCode;

/// The running receiver; it stops when dropped.
pub struct Receiver {
    pub url: String,
    count: Arc<AtomicU64>,
    task: tokio::task::JoinHandle<()>,
}

impl Drop for Receiver {
    fn drop(&mut self) {
        self.task.abort();
    }
}

impl Receiver {
    pub async fn start() -> std::io::Result<Receiver> {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
        let url = format!("http://{}/hook", listener.local_addr()?);
        let count = Arc::new(AtomicU64::new(0));
        let router = Router::new().fallback(receive).with_state(count.clone());
        let task = tokio::spawn(async move {
            let _ = axum::serve(listener, router).await;
        });
        Ok(Receiver { url, count, task })
    }

    /// Deliveries received so far.
    pub fn count(&self) -> u64 {
        self.count.load(Ordering::Relaxed)
    }

    /// Waits until `count` deliveries have arrived, at most `most`; the count then.
    pub async fn reached(&self, count: u64, most: Duration) -> u64 {
        let start = std::time::Instant::now();
        while self.count() < count && start.elapsed() < most {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        self.count()
    }

    /// Waits until no delivery has come for `quiet`, at most `most`; the count then.
    pub async fn settled(&self, quiet: Duration, most: Duration) -> u64 {
        let start = std::time::Instant::now();
        let mut last = self.count();
        while start.elapsed() < most {
            tokio::time::sleep(quiet).await;
            let now = self.count();
            if now == last {
                break;
            }
            last = now;
        }
        last
    }
}

async fn receive(State(count): State<Arc<AtomicU64>>) -> StatusCode {
    count.fetch_add(1, Ordering::Relaxed);
    StatusCode::NO_CONTENT
}

//! The OpenAI-compatible provider: the HTTP client (base URL, key, timeouts,
//! retries, error messages that never carry the key), its settings, and the
//! one async runtime of the process with cancellation.
//!
//! Both the LLM stages (`llm`: extraction, reranking, the support judge) and
//! the `openai` embedder (`embed`) talk to a server through this module;
//! neither knows about the other.
//!
//! One runtime per process: the board runs its event loop on [`runtime`],
//! and sync code (the pipeline, on the board's blocking threads or in the
//! CLI) drives async calls with [`block_on`]. A question is cancelled by
//! dropping its future ([`block_on_until`]), which closes the connection.

mod client;
mod config;
mod error;

pub use client::{ChatReply, LlmClient, LlmError, Usage, parse_retry_after};
pub use config::{ExtractionMode, LlmConfig};

use std::future::Future;
use std::sync::{Arc, OnceLock};

/// The process's async runtime (two worker threads, started on first use).
///
/// Pooled connections belong to the runtime that opened them; with one
/// runtime, an [`LlmClient`] is usable from the board's tasks, its blocking
/// workers and the CLI alike.
pub fn runtime() -> &'static tokio::runtime::Runtime {
    static RUNTIME: OnceLock<tokio::runtime::Runtime> = OnceLock::new();
    RUNTIME.get_or_init(|| {
        tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .thread_name("research-board-io")
            .enable_all()
            .build()
            .expect("cannot start the tokio runtime")
    })
}

/// Run `f` to completion on [`runtime`] from sync code.
///
/// Must not be called from async code (tokio panics: "Cannot start a
/// runtime from within a runtime"); from a blocking thread
/// (`spawn_blocking`, as the board's workers are) it is fine.
pub fn block_on<F: Future>(f: F) -> F::Output {
    runtime().block_on(f)
}

/// A switch to abandon the calls of one question (the board's Esc). Waiting
/// on it costs nothing: [`block_on_until`] races the work against it and
/// drops the work's future the moment it is set.
#[derive(Debug, Clone)]
pub struct Cancel(Arc<tokio::sync::watch::Sender<bool>>);

impl Default for Cancel {
    fn default() -> Self {
        Cancel(Arc::new(tokio::sync::watch::channel(false).0))
    }
}

impl Cancel {
    pub fn cancel(&self) {
        self.0.send_replace(true);
    }

    pub fn is_cancelled(&self) -> bool {
        *self.0.borrow()
    }

    /// Resolves once [`Cancel::cancel`] has been called.
    pub async fn cancelled(&self) {
        let mut rx = self.0.subscribe();
        // The sender lives in `self`, so the channel cannot close here.
        let _ = rx.wait_for(|set| *set).await;
    }
}

/// The question was cancelled while a call was in flight.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("cancelled")]
pub struct Cancelled;

/// [`block_on`], abandoning (dropping) `f` as soon as `cancel` is set.
pub fn block_on_until<F: Future>(f: F, cancel: Option<&Cancel>) -> Result<F::Output, Cancelled> {
    let Some(c) = cancel else {
        return Ok(block_on(f));
    };
    block_on(async {
        tokio::select! {
            biased;
            _ = c.cancelled() => Err(Cancelled),
            r = f => Ok(r),
        }
    })
}

/// reqwest is built without a TLS provider of its own (aws-lc's C build
/// was the longest step of a cold build): ring is the process's. Installed
/// once; a provider installed before stays.
fn install_tls() {
    let _ = rustls::crypto::ring::default_provider().install_default();
}

#[cfg(test)]
mod tests {
    /// Without a provider, building a client for an https endpoint panics.
    #[test]
    fn an_https_client_builds_with_the_ring_provider() {
        let cfg = super::LlmConfig {
            base_url: "https://api.openai.com/v1".into(),
            ..Default::default()
        };
        assert!(super::LlmClient::new(cfg).is_ok());
        assert!(rustls::crypto::CryptoProvider::get_default().is_some());
    }

    use super::*;
    use std::time::{Duration, Instant};

    #[test]
    fn cancel_drops_the_work_without_waiting_for_it() {
        let cancel = Cancel::default();
        let c = cancel.clone();
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(50));
            c.cancel();
        });
        let t = Instant::now();
        let work = async { tokio::time::sleep(Duration::from_secs(30)).await };
        let r = block_on_until(work, Some(&cancel));
        assert_eq!(r, Err(Cancelled));
        assert!(t.elapsed() < Duration::from_secs(5), "{:?}", t.elapsed());
    }

    #[test]
    fn a_cancelled_switch_stops_the_next_call_before_it_starts() {
        let cancel = Cancel::default();
        cancel.cancel();
        assert!(cancel.is_cancelled());
        let r = block_on_until(async { 7 }, Some(&cancel));
        assert_eq!(r, Err(Cancelled));
        assert_eq!(block_on_until(async { 7 }, None), Ok(7));
    }
}

//! An in-process mock OpenAI-compatible server for tests: scripted replies,
//! recorded requests.
#![allow(dead_code)]

use research_board::llm::{LlmClient, LlmConfig};
use serde_json::{Value, json};
use std::collections::VecDeque;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

// ---------------------------------------------------------------- mock server

/// What the mock does with one request.
#[derive(Clone)]
pub enum Action {
    Reply {
        status: u16,
        headers: Vec<(&'static str, String)>,
        body: String,
    },
    /// Read the request, then say nothing for this long.
    Hang(Duration),
    /// Announce `claimed` bytes of body, send `body` (shorter), close.
    Truncated { claimed: usize, body: String },
    /// Wait, then act.
    Delay(Duration, Box<Action>),
}

#[derive(Debug, Clone)]
pub struct Request {
    pub method: String,
    pub path: String,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl Request {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.body).expect("the request body is JSON")
    }
}

pub type Responder = Box<dyn Fn(&Request) -> Action + Send + Sync>;

pub struct Mock {
    pub port: u16,
    pub requests: Arc<Mutex<Vec<Request>>>,
    pub max_in_flight: Arc<AtomicUsize>,
    _shutdown: tokio::sync::oneshot::Sender<()>,
}

impl Mock {
    /// Replies in this order; a request past the script gets a 500.
    pub fn script(actions: Vec<Action>) -> Mock {
        let queue = Mutex::new(VecDeque::from(actions));
        Mock::with(move |_| {
            queue
                .lock()
                .unwrap()
                .pop_front()
                .unwrap_or_else(|| Action::Reply {
                    status: 500,
                    headers: vec![],
                    body: "no more scripted replies".into(),
                })
        })
    }

    /// Replies computed from each request. The server runs on its own
    /// thread and runtime, so it serves sync tests and async tests alike.
    pub fn with(f: impl Fn(&Request) -> Action + Send + Sync + 'static) -> Mock {
        let std_listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        std_listener.set_nonblocking(true).unwrap();
        let port = std_listener.local_addr().unwrap().port();
        let requests = Arc::new(Mutex::new(Vec::new()));
        let in_flight = Arc::new(AtomicUsize::new(0));
        let max_in_flight = Arc::new(AtomicUsize::new(0));
        let (tx, mut rx) = tokio::sync::oneshot::channel::<()>();
        let responder: Arc<Responder> = Arc::new(Box::new(f));
        let (reqs, flight, max_flight) = (requests.clone(), in_flight, max_in_flight.clone());
        std::thread::spawn(move || {
            let rt = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .unwrap();
            rt.block_on(async move {
                let listener = tokio::net::TcpListener::from_std(std_listener).unwrap();
                loop {
                    tokio::select! {
                        _ = &mut rx => break,
                        accepted = listener.accept() => {
                            let Ok((stream, _)) = accepted else { continue };
                            let (responder, reqs) = (responder.clone(), reqs.clone());
                            let (flight, max_flight) = (flight.clone(), max_flight.clone());
                            tokio::spawn(async move {
                                let now = flight.fetch_add(1, Ordering::SeqCst) + 1;
                                max_flight.fetch_max(now, Ordering::SeqCst);
                                serve(stream, &responder, &reqs).await;
                                flight.fetch_sub(1, Ordering::SeqCst);
                            });
                        }
                    }
                }
            });
        });
        Mock {
            port,
            requests,
            max_in_flight,
            _shutdown: tx,
        }
    }

    pub fn base_url(&self) -> String {
        format!("http://127.0.0.1:{}/v1", self.port)
    }

    pub fn requests(&self) -> Vec<Request> {
        self.requests.lock().unwrap().clone()
    }

    /// Settings for this server: no key, short timeouts, tiny backoff.
    pub fn config(&self) -> LlmConfig {
        LlmConfig {
            base_url: self.base_url(),
            model: "mock-model".into(),
            api_key: None,
            connect_timeout_s: 2.0,
            timeout_s: 3.0,
            max_attempts: 3,
            backoff_base_ms: 10,
            backoff_max_ms: 40,
            ..LlmConfig::default()
        }
    }

    pub fn client(&self) -> LlmClient {
        LlmClient::new(self.config()).unwrap()
    }
}

async fn serve(mut stream: TcpStream, responder: &Responder, reqs: &Mutex<Vec<Request>>) {
    let mut buf: Vec<u8> = Vec::new();
    let mut tmp = [0u8; 4096];
    let head_end = loop {
        if let Some(i) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            break i + 4;
        }
        match stream.read(&mut tmp).await {
            Ok(0) | Err(_) => return,
            Ok(n) => buf.extend_from_slice(&tmp[..n]),
        }
    };
    let head = String::from_utf8_lossy(&buf[..head_end]).to_string();
    let mut lines = head.split("\r\n");
    let mut first = lines.next().unwrap_or("").split(' ');
    let method = first.next().unwrap_or("").to_string();
    let path = first.next().unwrap_or("").to_string();
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
        .collect();
    let length: usize = headers
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case("content-length"))
        .and_then(|(_, v)| v.parse().ok())
        .unwrap_or(0);
    while buf.len() < head_end + length {
        match stream.read(&mut tmp).await {
            Ok(0) | Err(_) => return,
            Ok(n) => buf.extend_from_slice(&tmp[..n]),
        }
    }
    let req = Request {
        method,
        path,
        headers,
        body: String::from_utf8_lossy(&buf[head_end..head_end + length]).to_string(),
    };
    let mut action = responder(&req);
    reqs.lock().unwrap().push(req);
    loop {
        match action {
            Action::Delay(d, next) => {
                tokio::time::sleep(d).await;
                action = *next;
            }
            Action::Hang(d) => {
                tokio::time::sleep(d).await;
                return;
            }
            Action::Reply {
                status,
                headers,
                body,
            } => {
                let mut out = format!(
                    "HTTP/1.1 {status} Scripted\r\nContent-Type: application/json\r\n\
                     Content-Length: {}\r\nConnection: close\r\n",
                    body.len()
                );
                for (k, v) in headers {
                    out.push_str(&format!("{k}: {v}\r\n"));
                }
                out.push_str("\r\n");
                out.push_str(&body);
                let _ = stream.write_all(out.as_bytes()).await;
                let _ = stream.shutdown().await;
                return;
            }
            Action::Truncated { claimed, body } => {
                let out = format!(
                    "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\
                     Content-Length: {claimed}\r\nConnection: close\r\n\r\n{body}"
                );
                let _ = stream.write_all(out.as_bytes()).await;
                let _ = stream.shutdown().await;
                return;
            }
        }
    }
}

// ------------------------------------------------------------------- helpers

pub fn completion(content: &str, finish: &str) -> String {
    json!({
        "id": "chatcmpl-mock",
        "object": "chat.completion",
        "model": "mock-model",
        "choices": [{
            "index": 0,
            "message": {"role": "assistant", "content": content},
            "finish_reason": finish
        }],
        "usage": {"prompt_tokens": 321, "completion_tokens": 45, "total_tokens": 366}
    })
    .to_string()
}

pub fn ok(content: &str) -> Action {
    Action::Reply {
        status: 200,
        headers: vec![],
        body: completion(content, "stop"),
    }
}

pub fn status(code: u16, body: &str) -> Action {
    Action::Reply {
        status: code,
        headers: vec![],
        body: body.into(),
    }
}

// ---------------------------------------------------------------- the binary

/// The real binary, kept away from a developer's own config and data.
pub fn bin() -> std::process::Command {
    let mut c = std::process::Command::new(env!("CARGO_BIN_EXE_research-board"));
    c.env(
        "XDG_CONFIG_HOME",
        std::env::temp_dir().join("rb-test-no-config"),
    );
    c.env("XDG_DATA_HOME", std::env::temp_dir().join("rb-test-data"));
    c
}

//! `netserver --shape mt|ct|raw --addr HOST:PORT`: the Rust servers of the network
//! benchmark (bench/net/README.md, "Servers"). Prints `listening HOST:PORT`, serves
//! until its stdin ends or SIGTERM, then prints `served P packets, E errors`, exit 0.
//!
//! - `mt` / `ct`: a tokio multi-thread / current-thread runtime, a task per connection
//!   reading Pings through `bitwire-net`'s `MessageCodec` in a `Framed` and answering
//!   each with the Pong of the same `seq` and `data`. Replies are fed to the sink as the
//!   Pings are decoded and flushed when no further frame can be read without waiting:
//!   a Ping that arrived with others is answered in the same write, and no reply
//!   waits for a Ping that has not arrived. This is what a careful user writes with
//!   `Framed`; `Connection` would add a send queue and timers that a request/response
//!   server does not need.
//! - `raw`: a tokio multi-thread runtime echoing bytes (read into a buffer,
//!   `write_all`), the cost floor. It does not frame; its packets are the frames that
//!   went through, counted by their Length prefixes without checking them.
//!
//! An error (a malformed frame, a Pong, a failed read or write) closes that connection
//! and is counted; a connection the peer closes at a frame boundary is not an error.

use std::process::ExitCode;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use bitwire::frame::FrameSettings;
use bitwire_net::{ConnError, MessageCodec};
use bitwire_netbench::cli::Args;
use bitwire_netbench::netbench::{Message, Pong};
use bitwire_netbench::packet::FrameCounter;
use futures_util::{FutureExt, SinkExt, StreamExt};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio_util::codec::Framed;

/// Bytes a raw echo reads at once.
const RAW_BUFFER: usize = 16 * 1024;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Shape {
    MultiThread,
    CurrentThread,
    Raw,
}

/// What the server counts, printed when it stops.
#[derive(Debug, Default)]
struct Counts {
    packets: AtomicU64,
    errors: AtomicU64,
}

fn main() -> ExitCode {
    let args = match Args::parse(std::env::args().skip(1), &["shape", "addr"], &[]) {
        Ok(a) => a,
        Err(e) => return fail(e),
    };
    let shape = match args.get("shape") {
        Some("mt") => Shape::MultiThread,
        Some("ct") => Shape::CurrentThread,
        Some("raw") => Shape::Raw,
        other => return fail(format!("--shape must be mt, ct or raw, not {other:?}")),
    };
    let addr = args.get("addr").unwrap_or("127.0.0.1:0").to_string();
    let runtime = match shape {
        Shape::CurrentThread => tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build(),
        Shape::MultiThread | Shape::Raw => tokio::runtime::Builder::new_multi_thread()
            .enable_all()
            .build(),
    };
    let runtime = match runtime {
        Ok(r) => r,
        Err(e) => return fail(format!("cannot start the runtime: {e}")),
    };
    let counts = Arc::new(Counts::default());
    let result = runtime.block_on(serve(shape, &addr, counts.clone()));
    runtime.shutdown_timeout(Duration::from_millis(200));
    if let Err(e) = result {
        return fail(e);
    }
    println!(
        "served {} packets, {} errors",
        counts.packets.load(Ordering::SeqCst),
        counts.errors.load(Ordering::SeqCst)
    );
    ExitCode::SUCCESS
}

fn fail(error: impl std::fmt::Display) -> ExitCode {
    eprintln!("netserver: {error}");
    ExitCode::from(1)
}

/// Accepts connections until stdin ends or SIGTERM.
async fn serve(shape: Shape, addr: &str, counts: Arc<Counts>) -> Result<(), String> {
    let listener = TcpListener::bind(addr)
        .await
        .map_err(|e| format!("cannot listen on {addr}: {e}"))?;
    let local = listener.local_addr().map_err(|e| e.to_string())?;
    // Watching SIGTERM starts before `listening`: a SIGTERM right after it stops the
    // server cleanly instead of killing it.
    let stop = bitwire_netbench::sys::stopped()?;
    println!("listening {local}");
    tokio::pin!(stop);
    loop {
        tokio::select! {
            _ = &mut stop => return Ok(()),
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => {
                    let counts = counts.clone();
                    tokio::spawn(async move {
                        let result = match shape {
                            Shape::Raw => echo(stream, &counts).await.map_err(|e| e.to_string()),
                            _ => answer(stream, &counts).await.map_err(|e| e.to_string()),
                        };
                        if let Err(e) = result {
                            eprintln!("netserver: connection closed: {e}");
                            counts.errors.fetch_add(1, Ordering::SeqCst);
                        }
                    });
                }
                // Out of file descriptors and the like: wait, the clients may close some.
                Err(e) => {
                    eprintln!("netserver: accept: {e}");
                    tokio::time::sleep(Duration::from_millis(10)).await;
                }
            }
        }
    }
}

/// One bitwire connection: every Ping answered with its Pong.
async fn answer(stream: TcpStream, counts: &Counts) -> Result<(), ConnError> {
    stream.set_nodelay(true)?;
    let mut framed = Framed::new(stream, MessageCodec::<Message>::new(FrameSettings::new()));
    let mut answered = 0u64;
    loop {
        // A frame that can be read now is answered before flushing; otherwise the
        // replies so far go out before waiting for more.
        let next = match framed.next().now_or_never() {
            Some(next) => next,
            None => {
                counts.packets.fetch_add(answered, Ordering::Relaxed);
                answered = 0;
                SinkExt::<Message>::flush(&mut framed).await?;
                framed.next().await
            }
        };
        let ping = match next {
            Some(Ok(Message::Ping(ping))) => ping,
            Some(Ok(Message::Pong(_))) => {
                counts.packets.fetch_add(answered, Ordering::Relaxed);
                return Err(ConnError::Io(std::io::Error::other("a Pong from a client")));
            }
            Some(Err(e)) => {
                counts.packets.fetch_add(answered, Ordering::Relaxed);
                return Err(e);
            }
            None => break,
        };
        let pong = Message::Pong(Pong {
            seq: ping.seq,
            data: ping.data,
        });
        framed.feed(pong).await?;
        answered += 1;
    }
    counts.packets.fetch_add(answered, Ordering::Relaxed);
    SinkExt::<Message>::flush(&mut framed).await
}

/// One raw connection: bytes back as they come. The frames that went through are
/// counted by their Length prefixes, unchecked, before each write.
async fn echo(mut stream: TcpStream, counts: &Counts) -> std::io::Result<()> {
    stream.set_nodelay(true)?;
    let mut buf = vec![0; RAW_BUFFER];
    let mut counter = FrameCounter::default();
    loop {
        let n = stream.read(&mut buf).await?;
        if n == 0 {
            return Ok(());
        }
        let before = counter.frames;
        counter.scan(&buf[..n]);
        counts
            .packets
            .fetch_add(counter.frames - before, Ordering::Relaxed);
        stream.write_all(&buf[..n]).await?;
    }
}

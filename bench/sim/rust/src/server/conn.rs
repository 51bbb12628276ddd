//! Game connections over TCP, raw bitwire frames: the accept loop, each connection's
//! reader (decodes Input frames as they arrive with the connection's codec) and writer
//! (drains the send queue the sync system fills), and the end of a run (flush,
//! half-close, wait for the clients to close).

use std::rc::Rc;
use std::time::Duration;

use bitwire::frame::{FrameReader, Peeked};
use bytes::{Buf, BytesMut};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::tcp::{OwnedReadHalf, OwnedWriteHalf};
use tokio::net::{TcpListener, TcpStream};
use tokio_util::sync::CancellationToken;

use super::game::{Conn, ConnEnd, Game};
use crate::codec::INPUT_ID;

/// Bytes a reader asks the socket for at once (at least).
const READ_CHUNK: usize = 4096;
/// After the window, how long the clients have to close their side.
pub const CLOSE_GRACE: Duration = Duration::from_secs(10);

/// Accepts game connections until `stop` is cancelled.
pub async fn accept(game: Rc<Game>, listener: TcpListener, stop: CancellationToken) {
    loop {
        let accepted = tokio::select! {
            _ = stop.cancelled() => return,
            accepted = listener.accept() => accepted,
        };
        match accepted {
            Ok((stream, _)) => connect(&game, stream),
            // Out of file descriptors and the like: wait, clients may close some.
            Err(e) => {
                eprintln!("simserver: accept: {e}");
                tokio::time::sleep(Duration::from_millis(10)).await;
            }
        }
    }
}

/// A new player for `stream`, with its reader and writer tasks.
fn connect(game: &Rc<Game>, stream: TcpStream) {
    let player = match game.world.borrow_mut().join() {
        Ok(id) => id,
        Err(full) => {
            eprintln!("simserver: connection refused: {full}");
            return;
        }
    };
    if let Err(e) = stream.set_nodelay(true) {
        eprintln!("simserver: player {player}: cannot set TCP_NODELAY: {e}");
    }
    let (rd, wr) = stream.into_split();
    let conn = Rc::new(Conn::new(player, game.codec.server()));
    game.conns.borrow_mut().push(conn.clone());
    game.metrics.joined.inc();
    game.metrics.connected.inc();
    let reader = tokio::task::spawn_local(read(game.clone(), conn.clone(), rd));
    let writer = tokio::task::spawn_local(write(game.clone(), conn.clone(), wr));
    conn.set_tasks(vec![reader.abort_handle(), writer.abort_handle()]);
}

/// The reader: every frame until the client closes or sends something bad, which
/// ends the connection.
async fn read(game: Rc<Game>, conn: Rc<Conn>, mut rd: OwnedReadHalf) {
    let why = match read_inputs(&game, &conn, &mut rd).await {
        Ok(()) => ConnEnd::Closed,
        Err(why) => why,
    };
    game.end(&conn, why);
}

async fn read_inputs(game: &Game, conn: &Conn, rd: &mut OwnedReadHalf) -> Result<(), ConnEnd> {
    let mut reader = FrameReader::new(game.settings);
    let mut buf = BytesMut::with_capacity(READ_CHUNK);
    loop {
        // Every whole frame in the buffer, decoded in place.
        loop {
            let (input, len) = match reader.frame_at(&buf).map_err(ConnEnd::Frame)? {
                Peeked::Incomplete(_) => break,
                Peeked::Item(frame, len) => {
                    if frame.id != INPUT_ID {
                        return Err(ConnEnd::Unexpected(frame.id));
                    }
                    let mut st = conn.state.borrow_mut();
                    let input = st.codec.decode_input(frame.data).map_err(ConnEnd::Codec)?;
                    (input, len)
                }
            };
            buf.advance(len);
            game.input(conn, input, len);
        }
        // At most one frame (`max_frame`, checked before it is waited for) plus a
        // chunk is ever buffered.
        if buf.capacity() - buf.len() < READ_CHUNK / 2 {
            buf.reserve(READ_CHUNK);
        }
        if rd.read_buf(&mut buf).await.map_err(ConnEnd::Io)? == 0 {
            return reader.finish_at(&buf).map_err(ConnEnd::Frame);
        }
    }
}

/// The writer: writes what the sync system queued, in one write per batch, until the
/// connection closes (after the window: a half-close once the queue is empty).
async fn write(game: Rc<Game>, conn: Rc<Conn>, mut wr: OwnedWriteHalf) {
    let mut batch: Vec<u8> = Vec::new();
    loop {
        let closing = {
            let mut st = conn.state.borrow_mut();
            std::mem::swap(&mut st.outbox, &mut batch);
            st.in_flight = (st.frames, batch.len());
            st.frames = 0;
            st.closing
        };
        if batch.is_empty() {
            if closing {
                // TCP FIN after the last snapshot; the reader waits for the client's.
                if let Err(e) = wr.shutdown().await {
                    game.end(&conn, ConnEnd::Io(e));
                }
                return;
            }
            conn.wake.notified().await;
            continue;
        }
        if let Err(e) = wr.write_all(&batch).await {
            game.end(&conn, ConnEnd::Io(e));
            return;
        }
        batch.clear();
        conn.state.borrow_mut().in_flight = (0, 0);
    }
}

/// The end of a run: every queue is flushed and half-closed; resolves when every game
/// connection has ended (the clients closed theirs), or after [`CLOSE_GRACE`], when
/// the rest are closed.
pub async fn finish(game: &Game) {
    for conn in game.conns.borrow().iter() {
        conn.state.borrow_mut().closing = true;
        conn.wake.notify_one();
    }
    let deadline = tokio::time::Instant::now() + CLOSE_GRACE;
    loop {
        if game.conns.borrow().is_empty() {
            return;
        }
        tokio::select! {
            _ = game.ended.notified() => {}
            _ = tokio::time::sleep_until(deadline) => break,
        }
    }
    let left: Vec<Rc<Conn>> = game.conns.borrow().clone();
    for conn in left {
        game.end(&conn, ConnEnd::Abandoned);
    }
}

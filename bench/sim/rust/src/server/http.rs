//! The HTTP side (axum): `/metrics` (the Prometheus exposition: OpenMetrics text when
//! the scraper asks for it, as Prometheus does, else the text format 0.0.4),
//! `/live.json` (where the live view's WebSocket is) and the files of `--static DIR`
//! (the live view's page).

use std::path::PathBuf;
use std::sync::Arc;

use axum::extract::State;
use axum::http::header::{ACCEPT, CONTENT_TYPE};
use axum::http::HeaderMap;
use axum::response::IntoResponse;
use axum::routing::get;
use axum::Router;
use tokio::net::TcpListener;
use tower_http::services::ServeDir;

use super::metrics::Metrics;

#[derive(Clone)]
struct Http {
    metrics: Arc<Metrics>,
    /// `/live.json`'s body.
    live: Arc<str>,
}

/// The router: `/metrics`, `/live.json`, and `static_dir`'s files for anything else.
pub fn router(metrics: Arc<Metrics>, ws_url: &str, static_dir: Option<PathBuf>) -> Router {
    let live = serde_json::json!({ "ws": ws_url }).to_string();
    let router = Router::new()
        .route("/metrics", get(scrape))
        .route("/live.json", get(live_json))
        .with_state(Http {
            metrics,
            live: live.into(),
        });
    match static_dir {
        Some(dir) => router.fallback_service(ServeDir::new(dir)),
        None => router,
    }
}

async fn scrape(State(http): State<Http>, headers: HeaderMap) -> impl IntoResponse {
    let accept = headers
        .get(ACCEPT)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    let (body, content_type) = http.metrics.encode(Metrics::wants_openmetrics(accept));
    ([(CONTENT_TYPE, content_type)], body)
}

async fn live_json(State(http): State<Http>) -> impl IntoResponse {
    ([(CONTENT_TYPE, "application/json")], http.live.to_string())
}

/// Serves `router` on `listener` until the process ends.
pub async fn serve(listener: TcpListener, router: Router) {
    if let Err(e) = axum::serve(listener, router).await {
        eprintln!("simserver: HTTP server: {e}");
    }
}

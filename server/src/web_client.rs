//! Serves the browser client (the files under `web-client/`) from inside the binary, so a fresh
//! machine needs no separate build step: `cargo run` and open `/`.
//!
//! The client is plain ES modules; the server only maps paths to embedded files. One route is
//! registered per file, so every other path still reaches the application's own 404 (the client
//! routes with `#/...`, so no path needs an HTML fallback).

use axum::Router;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use include_dir::{Dir, DirEntry, include_dir};

/// Every file of the client, embedded at compile time.
static CLIENT: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/../web-client");

/// Routes that serve the client: `/` is `index.html`, and each embedded browser file its path.
/// Generic over the application's state so it merges into any router.
pub fn routes<S: Clone + Send + Sync + 'static>() -> Router<S> {
    let mut router = Router::new().route("/", get(|| async { file("index.html") }));
    let mut pending: Vec<&'static Dir<'static>> = vec![&CLIENT];
    while let Some(dir) = pending.pop() {
        for entry in dir.entries() {
            match entry {
                DirEntry::Dir(sub) => pending.push(sub),
                DirEntry::File(found) => {
                    let Some(path) = found.path().to_str() else {
                        continue;
                    };
                    if content_type(path).is_some() {
                        router = router
                            .route(&format!("/{path}"), get(move || async move { file(path) }));
                    }
                }
            }
        }
    }
    router
}

/// The embedded file at `path`, with its content type, or a 404.
fn file(path: &str) -> Response {
    // Only files meant for the browser are served (not tsconfig.json or the like).
    let Some(content_type) = content_type(path) else {
        return StatusCode::NOT_FOUND.into_response();
    };
    match CLIENT.get_file(path) {
        Some(found) => (
            [
                (header::CONTENT_TYPE, content_type),
                // The files change only with the binary; revalidating keeps upgrades visible.
                (header::CACHE_CONTROL, "no-cache"),
            ],
            found.contents(),
        )
            .into_response(),
        None => StatusCode::NOT_FOUND.into_response(),
    }
}

/// The content type of a servable file, by extension; `None` for files not meant to be served.
fn content_type(path: &str) -> Option<&'static str> {
    let extension = path.rsplit_once('.').map(|(_, ext)| ext)?;
    Some(match extension {
        "html" => "text/html; charset=utf-8",
        "js" => "text/javascript; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "ico" => "image/x-icon",
        "webmanifest" => "application/manifest+json",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::body::{Body, to_bytes};
    use axum::http::Request;
    use tower::ServiceExt;

    async fn get_path(path: &str) -> (StatusCode, Option<String>, Vec<u8>) {
        let response = routes::<()>()
            .oneshot(Request::get(path).body(Body::empty()).unwrap())
            .await
            .unwrap();
        let status = response.status();
        let content_type = response
            .headers()
            .get(header::CONTENT_TYPE)
            .map(|value| value.to_str().unwrap().to_owned());
        let body = to_bytes(response.into_body(), usize::MAX).await.unwrap();
        (status, content_type, body.to_vec())
    }

    #[tokio::test]
    async fn root_serves_the_embedded_index() {
        let (status, content_type, body) = get_path("/").await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(content_type.as_deref(), Some("text/html; charset=utf-8"));
        assert!(
            String::from_utf8(body)
                .unwrap()
                .contains("<script type=\"module\"")
        );
    }

    #[tokio::test]
    async fn modules_are_served_as_javascript() {
        let (status, content_type, body) = get_path("/app.js").await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(
            content_type.as_deref(),
            Some("text/javascript; charset=utf-8")
        );
        assert!(!body.is_empty());
    }

    #[tokio::test]
    async fn unknown_and_non_client_files_are_not_found() {
        assert_eq!(get_path("/nope.js").await.0, StatusCode::NOT_FOUND);
        assert_eq!(get_path("/tsconfig.json").await.0, StatusCode::NOT_FOUND);
        assert_eq!(get_path("/../Cargo.toml").await.0, StatusCode::NOT_FOUND);
    }
}

//! Serves the browser client (the files under `web-client/`) from inside the binary, so a fresh
//! machine needs no separate build step: `cargo run` and open `/`.
//!
//! The client is plain ES modules; the server only maps paths to embedded files. One route is
//! registered per file, so every other path still reaches the application's own 404 (the client
//! routes with `#/...`, so no path needs an HTML fallback).
//!
//! Caching: every file carries a strong `ETag` (a hash of its bytes) and `Cache-Control:
//! no-cache`, so a browser revalidates and gets `304 Not Modified` with no body while the binary
//! is the same, and sees a new client at once after an upgrade.

use std::collections::HashMap;
use std::sync::LazyLock;

use axum::Router;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use include_dir::{Dir, DirEntry, include_dir};
use sha2::{Digest, Sha256};

/// Every file of the client, embedded at compile time.
static CLIENT: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/../web-client");

/// Routes that serve the client: `/` is `index.html`, and each embedded browser file its path.
/// Generic over the application's state so it merges into any router.
pub fn routes<S: Clone + Send + Sync + 'static>() -> Router<S> {
    let mut router = Router::new().route(
        "/",
        get(|headers: HeaderMap| async move { file("index.html", &headers) }),
    );
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
                        router = router.route(
                            &format!("/{path}"),
                            get(move |headers: HeaderMap| async move { file(path, &headers) }),
                        );
                    }
                }
            }
        }
    }
    router
}

/// Each embedded file's entity tag: the first 16 bytes of its SHA-256, quoted.
static ETAGS: LazyLock<HashMap<&'static str, String>> = LazyLock::new(|| {
    let mut tags = HashMap::new();
    let mut pending: Vec<&'static Dir<'static>> = vec![&CLIENT];
    while let Some(dir) = pending.pop() {
        for entry in dir.entries() {
            match entry {
                DirEntry::Dir(sub) => pending.push(sub),
                DirEntry::File(found) => {
                    if let Some(path) = found.path().to_str() {
                        let digest = Sha256::digest(found.contents());
                        tags.insert(path, format!("\"{}\"", hex::encode(&digest[..16])));
                    }
                }
            }
        }
    }
    tags
});

/// The embedded file at `path`, with its content type and entity tag; `304` when the request's
/// `If-None-Match` already names that tag; a 404 for anything else.
fn file(path: &str, headers: &HeaderMap) -> Response {
    // Only files meant for the browser are served (not tsconfig.json or the like).
    let Some(content_type) = content_type(path) else {
        return StatusCode::NOT_FOUND.into_response();
    };
    let (Some(found), Some(etag)) = (CLIENT.get_file(path), ETAGS.get(path)) else {
        return StatusCode::NOT_FOUND.into_response();
    };
    // The files change only with the binary; revalidating keeps upgrades visible.
    let cache = (header::CACHE_CONTROL, "no-cache");
    if matches_etag(headers, etag) {
        return (
            StatusCode::NOT_MODIFIED,
            [cache, (header::ETAG, etag.as_str())],
        )
            .into_response();
    }
    (
        [
            (header::CONTENT_TYPE, content_type),
            cache,
            (header::ETAG, etag.as_str()),
        ],
        found.contents(),
    )
        .into_response()
}

/// Whether `If-None-Match` names `etag` (or is `*`).
fn matches_etag(headers: &HeaderMap, etag: &str) -> bool {
    headers
        .get_all(header::IF_NONE_MATCH)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(','))
        .map(|tag| tag.trim().trim_start_matches("W/"))
        .any(|tag| tag == etag || tag == "*")
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
    async fn a_known_etag_gets_not_modified_without_a_body() {
        let first = routes::<()>()
            .oneshot(Request::get("/app.js").body(Body::empty()).unwrap())
            .await
            .unwrap();
        let etag = first.headers()[header::ETAG].to_str().unwrap().to_owned();
        assert!(etag.starts_with('"') && etag.len() == 34, "{etag}");
        let again = routes::<()>()
            .oneshot(
                Request::get("/app.js")
                    .header(header::IF_NONE_MATCH, &etag)
                    .body(Body::empty())
                    .unwrap(),
            )
            .await
            .unwrap();
        assert_eq!(again.status(), StatusCode::NOT_MODIFIED);
        assert_eq!(again.headers()[header::ETAG].to_str().unwrap(), etag);
        assert!(
            to_bytes(again.into_body(), usize::MAX)
                .await
                .unwrap()
                .is_empty()
        );
        let stale = routes::<()>()
            .oneshot(
                Request::get("/app.js")
                    .header(header::IF_NONE_MATCH, "\"0000\"")
                    .body(Body::empty())
                    .unwrap(),
            )
            .await
            .unwrap();
        assert_eq!(stale.status(), StatusCode::OK);
    }

    #[tokio::test]
    async fn unknown_and_non_client_files_are_not_found() {
        assert_eq!(get_path("/nope.js").await.0, StatusCode::NOT_FOUND);
        assert_eq!(get_path("/tsconfig.json").await.0, StatusCode::NOT_FOUND);
        assert_eq!(get_path("/../Cargo.toml").await.0, StatusCode::NOT_FOUND);
    }
}

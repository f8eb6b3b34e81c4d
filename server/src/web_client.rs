//! Serves the browser client (the files under `web-client/`) from inside the binary, so a fresh
//! machine needs no separate build step: `cargo run` and open `/`.
//!
//! The client is plain ES modules; the server only maps paths to embedded files. One route is
//! registered per file, so every other path still reaches the application's own 404 (the client
//! routes with `#/...`, so no path needs an HTML fallback).
//!
//! Security: every file carries a Content-Security-Policy (scripts, styles and connections
//! only from this server, no framing by other sites), `X-Content-Type-Options: nosniff`,
//! `X-Frame-Options: DENY` and `Referrer-Policy: no-referrer`. The client has no inline script
//! or style: styles set from code go through the CSSOM, which the policy allows.
//!
//! Caching: every file carries a strong `ETag` (a hash of its bytes) and `Cache-Control:
//! no-cache`, so a browser revalidates and gets `304 Not Modified` with no body while the binary
//! is the same, and sees a new client at once after an upgrade.
//!
//! Compression: text files are gzipped once, when first asked for, and served compressed to
//! browsers that accept gzip (`Vary: Accept-Encoding`); the compressed form has its own tag
//! (`"<hash>-gz"`), so a cache never mixes the two.

use std::collections::HashMap;
use std::sync::LazyLock;

use axum::Router;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use flate2::Compression;
use flate2::write::GzEncoder;
use include_dir::{Dir, DirEntry, include_dir};
use sha2::{Digest, Sha256};
use std::io::Write;

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
    router.layer(axum::middleware::map_response(secure))
}

/// The client's Content-Security-Policy. `'self'` in `connect-src` covers the page's own `ws:`
/// and `wss:` (CSP level 3); `data:` images are the tab icon's turn mark.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'self'; \
    style-src 'self'; img-src 'self' data:; connect-src 'self'; font-src 'self'; \
    object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/// Adds the security headers to a client file's answer.
async fn secure(mut response: Response) -> Response {
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(CONTENT_SECURITY_POLICY),
    );
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    headers.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    headers.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    response
}

/// One embedded file as served: its tag, and its gzipped form when that is smaller.
struct Asset {
    /// The first 16 bytes of the SHA-256 of its bytes, quoted.
    etag: String,
    /// The gzipped bytes and their own tag, for text files that shrink.
    gzip: Option<(Vec<u8>, String)>,
}

/// Every embedded file's tag and compressed form, built once on first use.
static ASSETS: LazyLock<HashMap<&'static str, Asset>> = LazyLock::new(|| {
    let mut assets = HashMap::new();
    let mut pending: Vec<&'static Dir<'static>> = vec![&CLIENT];
    while let Some(dir) = pending.pop() {
        for entry in dir.entries() {
            match entry {
                DirEntry::Dir(sub) => pending.push(sub),
                DirEntry::File(found) => {
                    if let Some(path) = found.path().to_str() {
                        let digest = hex::encode(&Sha256::digest(found.contents())[..16]);
                        let gzip = is_text(path)
                            .then(|| gzip(found.contents()))
                            .flatten()
                            .map(|bytes| (bytes, format!("\"{digest}-gz\"")));
                        let etag = format!("\"{digest}\"");
                        assets.insert(path, Asset { etag, gzip });
                    }
                }
            }
        }
    }
    assets
});

/// `bytes` gzipped, when that makes them smaller.
fn gzip(bytes: &[u8]) -> Option<Vec<u8>> {
    let mut encoder = GzEncoder::new(Vec::new(), Compression::best());
    encoder.write_all(bytes).ok()?;
    let compressed = encoder.finish().ok()?;
    (compressed.len() < bytes.len()).then_some(compressed)
}

/// The embedded file at `path`, with its content type and entity tag, gzipped when the browser
/// accepts it; `304` when the request's `If-None-Match` already names that tag; a 404 for
/// anything else.
fn file(path: &str, headers: &HeaderMap) -> Response {
    // Only files meant for the browser are served (not tsconfig.json or the like).
    let Some(content_type) = content_type(path) else {
        return StatusCode::NOT_FOUND.into_response();
    };
    let (Some(found), Some(asset)) = (CLIENT.get_file(path), ASSETS.get(path)) else {
        return StatusCode::NOT_FOUND.into_response();
    };
    let gzipped = asset.gzip.as_ref().filter(|_| accepts_gzip(headers));
    let (body, etag) = match gzipped {
        Some((bytes, etag)) => (bytes.as_slice(), etag.as_str()),
        None => (found.contents(), asset.etag.as_str()),
    };
    // The files change only with the binary; revalidating keeps upgrades visible.
    let mut response = if matches_etag(headers, etag) {
        (StatusCode::NOT_MODIFIED, [(header::ETAG, etag)]).into_response()
    } else {
        (
            [(header::CONTENT_TYPE, content_type), (header::ETAG, etag)],
            body,
        )
            .into_response()
    };
    let response_headers = response.headers_mut();
    response_headers.insert(
        header::CACHE_CONTROL,
        header::HeaderValue::from_static("no-cache"),
    );
    if asset.gzip.is_some() {
        response_headers.insert(
            header::VARY,
            header::HeaderValue::from_static("accept-encoding"),
        );
    }
    if gzipped.is_some() && response.status() == StatusCode::OK {
        response.headers_mut().insert(
            header::CONTENT_ENCODING,
            header::HeaderValue::from_static("gzip"),
        );
    }
    response
}

/// Whether `Accept-Encoding` accepts gzip (named or by `*`, and not with `q=0`).
fn accepts_gzip(headers: &HeaderMap) -> bool {
    headers
        .get_all(header::ACCEPT_ENCODING)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(','))
        .any(|coding| {
            let mut parts = coding.split(';').map(str::trim);
            let name = parts.next().unwrap_or_default();
            let refused = parts.any(|param| {
                param
                    .strip_prefix("q=")
                    .and_then(|q| q.parse::<f32>().ok())
                    .is_some_and(|q| q <= 0.0)
            });
            (name.eq_ignore_ascii_case("gzip") || name == "*") && !refused
        })
}

/// Whether a file is text that compresses well.
fn is_text(path: &str) -> bool {
    [".html", ".js", ".css", ".svg", ".webmanifest"]
        .iter()
        .any(|extension| path.ends_with(extension))
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
    async fn text_is_gzipped_for_browsers_that_accept_it_with_its_own_tag() {
        let ask = |encoding: &'static str| {
            routes::<()>().oneshot(
                Request::get("/app.js")
                    .header(header::ACCEPT_ENCODING, encoding)
                    .body(Body::empty())
                    .unwrap(),
            )
        };
        let plain = routes::<()>()
            .oneshot(Request::get("/app.js").body(Body::empty()).unwrap())
            .await
            .unwrap();
        assert!(plain.headers().get(header::CONTENT_ENCODING).is_none());
        let plain_tag = plain.headers()[header::ETAG].to_str().unwrap().to_owned();
        let plain_body = to_bytes(plain.into_body(), usize::MAX).await.unwrap();

        let zipped = ask("br, gzip;q=0.8").await.unwrap();
        assert_eq!(zipped.headers()[header::CONTENT_ENCODING], "gzip");
        assert_eq!(zipped.headers()[header::VARY], "accept-encoding");
        let zipped_tag = zipped.headers()[header::ETAG].to_str().unwrap().to_owned();
        assert_ne!(zipped_tag, plain_tag, "each form has its own tag");
        let zipped_body = to_bytes(zipped.into_body(), usize::MAX).await.unwrap();
        assert!(zipped_body.len() < plain_body.len());
        let mut unzipped = Vec::new();
        std::io::Read::read_to_end(
            &mut flate2::read::GzDecoder::new(&zipped_body[..]),
            &mut unzipped,
        )
        .unwrap();
        assert_eq!(unzipped, plain_body, "the same file");

        let refused = ask("gzip;q=0, identity").await.unwrap();
        assert!(refused.headers().get(header::CONTENT_ENCODING).is_none());

        let again = routes::<()>()
            .oneshot(
                Request::get("/app.js")
                    .header(header::ACCEPT_ENCODING, "gzip")
                    .header(header::IF_NONE_MATCH, &zipped_tag)
                    .body(Body::empty())
                    .unwrap(),
            )
            .await
            .unwrap();
        assert_eq!(again.status(), StatusCode::NOT_MODIFIED);
        assert!(again.headers().get(header::CONTENT_ENCODING).is_none());
    }

    #[tokio::test]
    async fn unknown_and_non_client_files_are_not_found() {
        assert_eq!(get_path("/nope.js").await.0, StatusCode::NOT_FOUND);
        assert_eq!(get_path("/tsconfig.json").await.0, StatusCode::NOT_FOUND);
        assert_eq!(get_path("/../Cargo.toml").await.0, StatusCode::NOT_FOUND);
    }
}

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
//! Caching: the page (`/`) names every file under a versioned path, `/v/<version>/<file>`, where
//! the version is a hash of all the client's files; those answers are `immutable` for a year, so
//! a returning browser loads the client without asking again, and an upgrade (a new version in
//! the page) fetches what changed. The page itself and the plain paths (`/<file>`) carry a strong
//! `ETag` (a hash of their bytes) and `Cache-Control: no-cache`: a browser revalidates them and
//! gets `304 Not Modified` with no body while the binary is the same. A versioned path of another
//! version (a page loaded before an upgrade) gets today's file, revalidated like a plain path.
//!
//! Compression: text files are gzipped once, when first asked for, and served compressed to
//! browsers that accept gzip (`Vary: Accept-Encoding`); the compressed form has its own tag
//! (`"<hash>-gz"`), so a cache never mixes the two.

use std::collections::HashMap;
use std::sync::LazyLock;

use axum::Router;
use axum::body::Bytes;
use axum::extract::Path;
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
    let mut router =
        Router::new()
            .route(
                "/",
                get(|headers: HeaderMap| async move {
                    file("index.html", &headers, Caching::Revalidate)
                }),
            )
            .route("/v/{version}/{*path}", get(versioned));
    for (path, _) in embedded_files() {
        if content_type(path).is_some() {
            router =
                router.route(
                    &format!("/{path}"),
                    get(move |headers: HeaderMap| async move {
                        file(path, &headers, Caching::Revalidate)
                    }),
                );
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

/// One embedded file as served: its bytes, its tag, and its gzipped form when that is smaller.
struct Asset {
    /// What is sent (the page's names rewritten to the versioned paths).
    body: Bytes,
    /// The first 16 bytes of the SHA-256 of its body, quoted.
    etag: String,
    /// The gzipped bytes and their own tag, for text files that shrink.
    gzip: Option<(Bytes, String)>,
}

impl Asset {
    fn new(path: &str, body: Bytes) -> Asset {
        let digest = hex::encode(&Sha256::digest(&body)[..16]);
        let gzip = is_text(path)
            .then(|| gzip(&body))
            .flatten()
            .map(|bytes| (Bytes::from(bytes), format!("\"{digest}-gz\"")));
        let etag = format!("\"{digest}\"");
        Asset { body, etag, gzip }
    }
}

/// The client as served: its version and every file, built once on first use.
struct Client {
    /// A hash of every file's path and bytes: the `<version>` of `/v/<version>/<file>`.
    version: String,
    /// Every file by its path.
    assets: HashMap<&'static str, Asset>,
}

/// Every embedded file, (path, bytes), sorted by path.
fn embedded_files() -> Vec<(&'static str, &'static [u8])> {
    let mut files = Vec::new();
    let mut pending: Vec<&'static Dir<'static>> = vec![&CLIENT];
    while let Some(dir) = pending.pop() {
        for entry in dir.entries() {
            match entry {
                DirEntry::Dir(sub) => pending.push(sub),
                DirEntry::File(found) => {
                    if let Some(path) = found.path().to_str() {
                        files.push((path, found.contents()));
                    }
                }
            }
        }
    }
    files.sort_unstable_by_key(|(path, _)| *path);
    files
}

static SERVED: LazyLock<Client> = LazyLock::new(|| {
    let files = embedded_files();
    let mut hasher = Sha256::new();
    for (path, contents) in &files {
        hasher.update(path.as_bytes());
        hasher.update([0]);
        hasher.update(Sha256::digest(contents));
    }
    let version = hex::encode(&hasher.finalize()[..8]);
    let assets = files
        .into_iter()
        .map(|(path, contents)| {
            let body = if path == "index.html" {
                Bytes::from(versioned_page(&String::from_utf8_lossy(contents), &version))
            } else {
                Bytes::from_static(contents)
            };
            (path, Asset::new(path, body))
        })
        .collect();
    Client { version, assets }
});

/// The page with each of its own files (`href="style.css"`, `src="app.js"`) named under
/// `/v/<version>/`; links within the page (`#/...`), absolute paths and other sites are kept.
fn versioned_page(html: &str, version: &str) -> String {
    let mut page = html.to_owned();
    for attribute in ["href=\"", "src=\""] {
        let mut parts = page.split(attribute);
        let mut rewritten = parts.next().unwrap_or_default().to_owned();
        for part in parts {
            rewritten.push_str(attribute);
            let value = part.split('"').next().unwrap_or_default();
            let own_file = !value.is_empty()
                && !value.starts_with('#')
                && !value.starts_with('/')
                && !value.contains(':');
            if own_file {
                rewritten.push_str(&format!("/v/{version}/"));
            }
            rewritten.push_str(part);
        }
        page = rewritten;
    }
    page
}

/// How long a browser may keep an answer without asking again.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Caching {
    /// Ask each time (`no-cache`): a `304` while the file is the same.
    Revalidate,
    /// Keep it a year without asking (a versioned path: its bytes never change).
    Immutable,
}

/// `/v/<version>/<file>`: immutable when it is this binary's version.
async fn versioned(Path((version, path)): Path<(String, String)>, headers: HeaderMap) -> Response {
    let caching = if version == SERVED.version {
        Caching::Immutable
    } else {
        Caching::Revalidate
    };
    match SERVED.assets.get_key_value(path.as_str()) {
        Some((path, _)) => file(path, &headers, caching),
        None => StatusCode::NOT_FOUND.into_response(),
    }
}

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
fn file(path: &'static str, headers: &HeaderMap, caching: Caching) -> Response {
    // Only files meant for the browser are served (not tsconfig.json or the like).
    let Some(content_type) = content_type(path) else {
        return StatusCode::NOT_FOUND.into_response();
    };
    let Some(asset) = SERVED.assets.get(path) else {
        return StatusCode::NOT_FOUND.into_response();
    };
    let gzipped = asset.gzip.as_ref().filter(|_| accepts_gzip(headers));
    let (body, etag) = match gzipped {
        Some((bytes, etag)) => (bytes.clone(), etag.as_str()),
        None => (asset.body.clone(), asset.etag.as_str()),
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
        header::HeaderValue::from_static(match caching {
            Caching::Revalidate => "no-cache",
            Caching::Immutable => "public, max-age=31536000, immutable",
        }),
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

    /// The client's answer to `GET path` with these request headers.
    async fn ask(path: &str, headers: &[(header::HeaderName, &str)]) -> Response {
        let mut request = Request::get(path);
        for (name, value) in headers {
            request = request.header(name, *value);
        }
        routes::<()>()
            .oneshot(request.body(Body::empty()).unwrap())
            .await
            .unwrap()
    }

    async fn get_path(path: &str) -> (StatusCode, Option<String>, Vec<u8>) {
        let response = ask(path, &[]).await;
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
    async fn the_page_names_its_files_under_the_version_and_those_are_immutable() {
        let (_, _, page) = get_path("/").await;
        let page = String::from_utf8(page).unwrap();
        let version = &SERVED.version;
        assert!(
            page.contains(&format!("src=\"/v/{version}/app.js\"")),
            "{page}"
        );
        assert!(
            page.contains(&format!("href=\"/v/{version}/style.css\"")),
            "{page}"
        );
        assert!(
            page.contains("href=\"#/\""),
            "links within the page are kept: {page}"
        );

        let cache_control = |response: &Response| {
            response.headers()[header::CACHE_CONTROL]
                .to_str()
                .unwrap()
                .to_owned()
        };
        let versioned = ask(&format!("/v/{version}/lib/board.js"), &[]).await;
        assert_eq!(versioned.status(), StatusCode::OK);
        assert!(cache_control(&versioned).contains("immutable"));
        let plain = ask("/lib/board.js", &[]).await;
        assert_eq!(cache_control(&plain), "no-cache");
        assert_eq!(
            to_bytes(versioned.into_body(), usize::MAX).await.unwrap(),
            to_bytes(plain.into_body(), usize::MAX).await.unwrap()
        );
        // A page from before an upgrade gets today's files, revalidated.
        let old = ask("/v/0123456789abcdef/app.js", &[]).await;
        assert_eq!(old.status(), StatusCode::OK);
        assert_eq!(cache_control(&old), "no-cache");
        for missing in ["nope.js", "tsconfig.json", "../Cargo.toml"] {
            let answer = ask(&format!("/v/{version}/{missing}"), &[]).await;
            assert_eq!(answer.status(), StatusCode::NOT_FOUND, "{missing}");
        }
    }

    #[test]
    fn only_the_pages_own_files_are_versioned() {
        let page = r##"<a href="#/">x</a><link href="style.css"><script src="app.js"></script><a href="/api/rooms"></a><a href="https://example.org/a.js"></a>"##;
        assert_eq!(
            versioned_page(page, "v1"),
            r##"<a href="#/">x</a><link href="/v/v1/style.css"><script src="/v/v1/app.js"></script><a href="/api/rooms"></a><a href="https://example.org/a.js"></a>"##
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
        let first = ask("/app.js", &[]).await;
        let etag = first.headers()[header::ETAG].to_str().unwrap().to_owned();
        assert!(etag.starts_with('"') && etag.len() == 34, "{etag}");
        let again = ask("/app.js", &[(header::IF_NONE_MATCH, &etag)]).await;
        assert_eq!(again.status(), StatusCode::NOT_MODIFIED);
        assert_eq!(again.headers()[header::ETAG].to_str().unwrap(), etag);
        assert!(
            to_bytes(again.into_body(), usize::MAX)
                .await
                .unwrap()
                .is_empty()
        );
        let stale = ask("/app.js", &[(header::IF_NONE_MATCH, "\"0000\"")]).await;
        assert_eq!(stale.status(), StatusCode::OK);
    }

    #[tokio::test]
    async fn text_is_gzipped_for_browsers_that_accept_it_with_its_own_tag() {
        let plain = ask("/app.js", &[]).await;
        assert!(plain.headers().get(header::CONTENT_ENCODING).is_none());
        let plain_tag = plain.headers()[header::ETAG].to_str().unwrap().to_owned();
        let plain_body = to_bytes(plain.into_body(), usize::MAX).await.unwrap();

        let zipped = ask("/app.js", &[(header::ACCEPT_ENCODING, "br, gzip;q=0.8")]).await;
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

        let refused = ask(
            "/app.js",
            &[(header::ACCEPT_ENCODING, "gzip;q=0, identity")],
        )
        .await;
        assert!(refused.headers().get(header::CONTENT_ENCODING).is_none());

        let again = ask(
            "/app.js",
            &[
                (header::ACCEPT_ENCODING, "gzip"),
                (header::IF_NONE_MATCH, &zipped_tag),
            ],
        )
        .await;
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

//! The web app at `/`: from a folder (`--web-dir`, for development), else from the files
//! built into the binary (the `embed-web` feature, build.rs), else a page that says what is
//! missing. Both sources answer alike: the `.br`/`.gz` copies the build writes beside each
//! file (web/scripts/compress.mjs) to browsers that accept them, with the plain file's
//! content type; `index.html` for any path that names no file (the app routes itself);
//! hashed assets cached for good, everything else revalidated.

use std::path::Path;

use axum::body::Body;
use axum::extract::Request;
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};

/// One file of the web app built into the binary.
pub struct EmbeddedFile {
    /// The path under the app's folder, `/`-separated, e.g. `assets/index-1a2b.js`.
    pub path: &'static str,
    pub body: &'static [u8],
    /// The build's brotli and gzip copies of `body`, when it wrote them.
    pub br: Option<&'static [u8]>,
    pub gz: Option<&'static [u8]>,
    /// A fingerprint of `body` (the ETag, with the encoding sent appended).
    pub etag: &'static str,
}

/// A web app held in memory: files sorted by path, `index.html` among them.
#[derive(Clone, Copy)]
pub struct Embedded(&'static [EmbeddedFile]);

impl std::fmt::Debug for Embedded {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Embedded({} files)", self.0.len())
    }
}

impl Embedded {
    /// The app built into this binary: `None` unless it was built with `embed-web`.
    pub fn built_in() -> Option<Embedded> {
        #[cfg(feature = "embed-web")]
        {
            static FILES: &[EmbeddedFile] = include!(concat!(env!("OUT_DIR"), "/web_app.rs"));
            Embedded::new(FILES)
        }
        #[cfg(not(feature = "embed-web"))]
        None
    }

    /// Files sorted by path with an `index.html` (`None` otherwise: nothing to serve at `/`).
    pub fn new(files: &'static [EmbeddedFile]) -> Option<Embedded> {
        let sorted = files.windows(2).all(|w| w[0].path < w[1].path);
        let app = Embedded(files);
        (sorted && app.get("index.html").is_some()).then_some(app)
    }

    pub fn files(&self) -> usize {
        self.0.len()
    }

    fn get(&self, path: &str) -> Option<&'static EmbeddedFile> {
        let files = self.0;
        files.binary_search_by(|f| f.path.cmp(path)).ok().map(|i| &files[i])
    }
}

/// Where the app comes from (`Config::web_dir`, `Config::embedded_web`), for the line
/// `rumis serve` prints.
pub fn describe(web_dir: Option<&Path>, embedded: Option<Embedded>) -> String {
    match (web_dir, embedded) {
        (Some(dir), _) => format!("web app {}", dir.display()),
        (None, Some(app)) => format!("web app built in ({} files)", app.files()),
        (None, None) => "web app not built".to_string(),
    }
}

/// What `/` says when there is no web app: neither a folder nor one built in.
const NOT_BUILT: &str = "<!doctype html>
<html lang=\"en\"><head><meta charset=\"utf-8\"><title>rumis</title></head>
<body>
<h1>rumis game server</h1>
<p>The web app is not built, and this <code>rumis</code> was built without it inside.
From the repository, build the app with</p>
<pre>npm --prefix web ci &amp;&amp; npm --prefix web run build</pre>
<p>then either serve it from its folder, <code>rumis serve --web-dir web/dist</code>,
or build a server that carries it: <code>scripts/release</code> (an archive) or
<code>cargo build --release -p rumis-cli --features embed-web</code>.</p>
<p>The API is at <a href=\"/api/v1\">/api/v1</a> (docs/server-api.md).</p>
</body></html>
";

/// What the app has for a request.
pub(crate) enum Answer {
    Page(Response),
    /// The path leads out of the app's folder (through a link).
    Outside,
    /// The folder could not be read.
    Failed(std::io::Error),
}

/// Answers a GET or HEAD outside `/api/` from the app (`Config::web_dir`, else
/// `Config::embedded_web`).
pub(crate) async fn serve(web_dir: Option<&Path>, embedded: Option<Embedded>, req: Request) -> Answer {
    let path = req.uri().path().to_string();
    let assets = path.starts_with("/assets/");
    let r = match (web_dir, embedded) {
        (Some(dir), _) if !crate::webdir::inside(dir, &path) => return Answer::Outside,
        (Some(dir), _) if dir.join("index.html").is_file() => match from_dir(dir, req).await {
            Ok(r) => r,
            Err(e) => return Answer::Failed(e),
        },
        (None, Some(app)) => from_memory(app, &path, req.headers()),
        _ => {
            return Answer::Page(
                (
                    [
                        (header::CONTENT_TYPE, "text/html; charset=utf-8"),
                        (header::CACHE_CONTROL, "no-store"),
                    ],
                    NOT_BUILT,
                )
                    .into_response(),
            )
        }
    };
    Answer::Page(with_cache_header(r, assets))
}

/// Files under /assets/ have their content's hash in their names: they never change.
/// Everything else (index.html above all, also when it answers for a missing asset) is
/// checked every time.
fn with_cache_header(mut r: Response, assets: bool) -> Response {
    let html = r
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes().starts_with(b"text/html"));
    let cache = if assets && !html && (r.status().is_success() || r.status() == StatusCode::NOT_MODIFIED) {
        "public, max-age=31536000, immutable"
    } else {
        "no-cache"
    };
    r.headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static(cache));
    r
}

async fn from_dir(dir: &Path, req: Request) -> Result<Response, std::io::Error> {
    let index = tower_http::services::ServeFile::new(dir.join("index.html"))
        .precompressed_br()
        .precompressed_gzip();
    // ServeDir refuses `..` and other non-normal components after decoding, so a path never
    // leaves the directory. A folder is never served as such: the static build has folders
    // with their own index.html (`/puzzle/`, `/how-to-play/`: web/scripts/offline.mjs, for
    // plain file servers), which ServeDir would answer with a redirect to the address with
    // a slash; here every page is index.html at its own address.
    let r = tower_http::services::ServeDir::new(dir)
        .append_index_html_on_directories(false)
        .precompressed_br()
        .precompressed_gzip()
        .fallback(index)
        .try_call(req)
        .await?;
    Ok(r.map(Body::new))
}

/// The embedded app's answer: the file the path names, else `index.html`; its compressed
/// copy when the client accepts it; 304 when the client's copy is this one.
fn from_memory(app: Embedded, path: &str, headers: &HeaderMap) -> Response {
    let decoded = String::from_utf8_lossy(&crate::webdir::decode(path)).into_owned();
    let name = decoded.trim_start_matches('/');
    let (name, file) = match app.get(name).filter(|_| !name.is_empty()) {
        Some(f) => (name, f),
        None => (
            "index.html",
            app.get("index.html").expect("Embedded::new checks index.html"),
        ),
    };
    let content_type = mime_guess::from_path(name)
        .first_raw()
        .unwrap_or("application/octet-stream");
    let (body, encoding) = match encoding(headers, file.br.is_some(), file.gz.is_some()) {
        Some("br") => (file.br.unwrap_or(file.body), Some("br")),
        Some(_) => (file.gz.unwrap_or(file.body), Some("gzip")),
        None => (file.body, None),
    };
    let etag = format!(
        "\"{}{}\"",
        file.etag,
        encoding.map_or(String::new(), |e| format!("-{e}"))
    );
    let fresh = headers
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.split(',').any(|t| t.trim() == etag || t.trim() == "*"));
    let mut r = if fresh {
        StatusCode::NOT_MODIFIED.into_response()
    } else {
        let mut r = Response::new(Body::from(body));
        r.headers_mut()
            .insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
        if let Some(e) = encoding {
            r.headers_mut()
                .insert(header::CONTENT_ENCODING, HeaderValue::from_static(e));
        }
        r
    };
    let h = r.headers_mut();
    h.insert(header::VARY, HeaderValue::from_static("accept-encoding"));
    if let Ok(v) = HeaderValue::from_str(&etag) {
        h.insert(header::ETAG, v);
    }
    r
}

/// The encoding to send ("br", "gzip" or none), as `ServeDir` chooses it: the accepted one
/// with the highest quality among the copies there are, brotli on a tie; `*` stands for
/// any coding not named.
fn encoding(headers: &HeaderMap, br: bool, gz: bool) -> Option<&'static str> {
    let mut q_br = None;
    let mut q_gz = None;
    let mut q_any = None;
    for v in headers.get_all(header::ACCEPT_ENCODING) {
        let Ok(v) = v.to_str() else { continue };
        for item in v.split(',') {
            let mut parts = item.split(';');
            let coding = parts.next().unwrap_or_default().trim().to_ascii_lowercase();
            let q = parts
                .filter_map(|p| p.trim().strip_prefix("q="))
                .filter_map(|q| q.trim().parse::<f32>().ok())
                .next_back()
                .unwrap_or(1.0);
            match coding.as_str() {
                "br" => q_br = Some(q),
                "gzip" | "x-gzip" => q_gz = Some(q),
                "*" => q_any = Some(q),
                _ => {}
            }
        }
    }
    let q_br = if br { q_br.or(q_any).unwrap_or(0.0) } else { 0.0 };
    let q_gz = if gz { q_gz.or(q_any).unwrap_or(0.0) } else { 0.0 };
    match (q_br > 0.0, q_gz > 0.0) {
        (false, false) => None,
        _ if q_br >= q_gz => Some("br"),
        _ => Some("gzip"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn accept(v: &str) -> HeaderMap {
        let mut h = HeaderMap::new();
        h.insert(header::ACCEPT_ENCODING, HeaderValue::from_str(v).unwrap());
        h
    }

    #[test]
    fn the_encoding_follows_the_client_and_the_copies_there_are() {
        assert_eq!(encoding(&accept("br, gzip"), true, true), Some("br"));
        assert_eq!(encoding(&accept("gzip, br"), true, true), Some("br"), "a tie");
        assert_eq!(encoding(&accept("br;q=0.5, gzip"), true, true), Some("gzip"));
        assert_eq!(encoding(&accept("br, gzip"), false, true), Some("gzip"));
        assert_eq!(encoding(&accept("br"), false, true), None);
        assert_eq!(encoding(&accept("identity"), true, true), None);
        assert_eq!(encoding(&accept("*"), true, true), Some("br"));
        assert_eq!(encoding(&accept("*, br;q=0"), true, true), Some("gzip"));
        assert_eq!(encoding(&accept("gzip;q=0"), true, true), None);
        assert_eq!(encoding(&HeaderMap::new(), true, true), None);
    }

    #[test]
    fn an_app_needs_sorted_files_and_an_index() {
        let file = |path| EmbeddedFile {
            path,
            body: b"x",
            br: None,
            gz: None,
            etag: "0",
        };
        assert!(Embedded::new(&[]).is_none(), "empty");
        let leak = |v: Vec<EmbeddedFile>| &*Box::leak(v.into_boxed_slice());
        assert!(Embedded::new(leak(vec![file("assets/a.js"), file("index.html")])).is_some());
        assert!(Embedded::new(leak(vec![file("index.html"), file("assets/a.js")])).is_none());
        assert!(Embedded::new(leak(vec![file("assets/a.js")])).is_none());
    }
}

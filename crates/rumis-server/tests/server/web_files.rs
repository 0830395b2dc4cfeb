//! The web app's files: the precompressed copies the build writes are sent to browsers that
//! accept them, hashed assets are cached for good, everything else is revalidated; alike
//! from a folder (`--web-dir`) and from the app built into the binary.

use crate::common;

use std::net::SocketAddr;

use common::*;
use rumis_server::webapp::{Embedded, EmbeddedFile};
use rumis_test_client as client;

async fn fetch(addr: SocketAddr, path: &str, accept: &str) -> client::Response {
    client::raw(
        addr,
        format!("GET {path} HTTP/1.1\r\nHost: x\r\nAccept-Encoding: {accept}\r\nConnection: close\r\n\r\n").as_bytes(),
    )
    .await
    .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn compressed_copies_and_cache_headers() {
    let dir = TempDir::new("web-files");
    let mut c = config(&dir.db_url());
    c.web_dir = Some(web_folder(&dir));
    c.embedded_web = None;
    compressed_copies_and_cache_headers_of(c).await;
}

/// The same files built in (as build.rs lists them with `embed-web`).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn compressed_copies_and_cache_headers_built_in() {
    let dir = TempDir::new("web-files-built-in");
    let mut c = config(&dir.db_url());
    c.web_dir = None;
    c.embedded_web = Some(built_in());
    compressed_copies_and_cache_headers_of(c).await;
}

fn built_in() -> Embedded {
    const INDEX: &[u8] = b"<!doctype html><title>rumis app</title>";
    let files = vec![
        EmbeddedFile {
            path: "assets/app-1a2b.js",
            body: b"console.log('rumis');",
            br: Some(b"BROTLI-JS"),
            gz: Some(b"GZIP-JS"),
            etag: "00000000000000aa",
        },
        EmbeddedFile {
            path: "index.html",
            body: INDEX,
            br: None,
            gz: Some(b"GZIP-INDEX"),
            etag: "00000000000000bb",
        },
        EmbeddedFile {
            path: "puzzle/index.html",
            body: INDEX,
            br: None,
            gz: None,
            etag: "00000000000000cc",
        },
    ];
    Embedded::new(Box::leak(files.into_boxed_slice())).expect("sorted, with an index.html")
}

/// A built app's folder: an index, a hashed asset, their compressed copies, a page folder.
fn web_folder(dir: &TempDir) -> std::path::PathBuf {
    let web = dir.0.join("dist");
    std::fs::create_dir_all(web.join("assets")).unwrap();
    std::fs::write(web.join("index.html"), "<!doctype html><title>rumis app</title>").unwrap();
    std::fs::write(web.join("index.html.gz"), "GZIP-INDEX").unwrap();
    std::fs::write(web.join("assets/app-1a2b.js"), "console.log('rumis');").unwrap();
    std::fs::write(web.join("assets/app-1a2b.js.br"), "BROTLI-JS").unwrap();
    std::fs::write(web.join("assets/app-1a2b.js.gz"), "GZIP-JS").unwrap();
    // The static build's page folders (for plain file servers: web/scripts/offline.mjs).
    std::fs::create_dir_all(web.join("puzzle")).unwrap();
    std::fs::write(web.join("puzzle/index.html"), "<!doctype html><title>rumis app</title>").unwrap();
    web
}

async fn compressed_copies_and_cache_headers_of(c: rumis_server::Config) {
    let server = start(c).await;
    let addr = server.addr;

    let immutable = "public, max-age=31536000, immutable";
    for (accept, encoding, body) in [
        ("br, gzip", Some("br"), "BROTLI-JS"),
        ("gzip", Some("gzip"), "GZIP-JS"),
        ("identity", None, "console.log('rumis');"),
    ] {
        let r = fetch(addr, "/assets/app-1a2b.js", accept).await;
        assert_eq!(r.status, 200, "{accept}");
        assert_eq!(r.header("content-encoding"), encoding, "{accept}");
        assert_eq!(r.text(), body, "{accept}");
        assert!(r.header("content-type").unwrap().contains("javascript"), "{accept}");
        assert_eq!(r.header("cache-control"), Some(immutable), "{accept}");
        assert_eq!(r.header("vary"), Some("accept-encoding"), "{accept}");
    }
    // index.html (also as the page for the app's own paths) is checked every time.
    for path in ["/", "/game/0123456789abcdef"] {
        let r = fetch(addr, path, "gzip").await;
        assert_eq!((r.status, r.header("content-encoding")), (200, Some("gzip")), "{path}");
        assert_eq!(r.text(), "GZIP-INDEX", "{path}");
        assert!(r.header("content-type").unwrap().starts_with("text/html"), "{path}");
        assert_eq!(r.header("cache-control"), Some("no-cache"), "{path}");
    }
    // A page folder is the app's page at the address asked, not a redirect to `/puzzle/`
    // (which ServeDir would answer for a folder).
    let r = fetch(addr, "/puzzle", "identity").await;
    assert_eq!(r.status, 200);
    assert!(r.text().contains("rumis app"));
    // A missing asset gets the app's page, which must not be cached for good.
    let r = fetch(addr, "/assets/gone-9z9z.js", "identity").await;
    assert_eq!(r.status, 200);
    assert!(r.text().contains("rumis app"));
    assert_eq!(r.header("cache-control"), Some("no-cache"));
    server.stop().await;
}

/// The built-in app's files carry an ETag per encoding sent: a client that has the copy
/// gets a 304, with the cache rule of its path.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn built_in_files_are_revalidated_by_etag() {
    let dir = TempDir::new("web-etag");
    let mut c = config(&dir.db_url());
    c.web_dir = None;
    c.embedded_web = Some(built_in());
    let server = start(c).await;
    let addr = server.addr;
    let r = fetch(addr, "/assets/app-1a2b.js", "gzip").await;
    let etag = r.header("etag").unwrap().to_string();
    assert_eq!(etag, "\"00000000000000aa-gzip\"");
    let r = fetch(addr, "/assets/app-1a2b.js", "identity").await;
    assert_eq!(r.header("etag"), Some("\"00000000000000aa\""));
    let ask = |path: &str, tag: &str| {
        format!("GET {path} HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip\r\nIf-None-Match: {tag}\r\nConnection: close\r\n\r\n")
    };
    let r = client::raw(addr, ask("/assets/app-1a2b.js", &etag).as_bytes())
        .await
        .unwrap();
    assert_eq!((r.status, r.text().as_str()), (304, ""));
    assert_eq!(r.header("cache-control"), Some("public, max-age=31536000, immutable"));
    // Another copy's tag (the plain file's) is not this one.
    let r = client::raw(addr, ask("/assets/app-1a2b.js", "\"00000000000000aa\"").as_bytes())
        .await
        .unwrap();
    assert_eq!((r.status, r.text().as_str()), (200, "GZIP-JS"));
    let r = client::raw(addr, ask("/", "\"00000000000000bb-gzip\"").as_bytes())
        .await
        .unwrap();
    assert_eq!((r.status, r.header("cache-control")), (304, Some("no-cache")));
    server.stop().await;
}

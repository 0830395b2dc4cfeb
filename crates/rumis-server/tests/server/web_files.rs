//! The web app's files: the precompressed copies the build writes are sent to browsers that
//! accept them, hashed assets are cached for good, everything else is revalidated.

use crate::common;

use std::net::SocketAddr;

use common::*;
use rumis_server::client;

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
    let mut c = config(&dir.db_url());
    c.web_dir = Some(web.clone());
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

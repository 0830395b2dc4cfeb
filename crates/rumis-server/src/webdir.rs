//! The web app's directory: which request paths may be served from it. `ServeDir` refuses
//! `..`, but follows symbolic links wherever they point; a link inside the directory that
//! leads out of it (say, to a home directory) must not be served.

use std::path::{Component, Path, PathBuf};

/// Whether the file (or directory, with its `index.html`) a request path names is inside
/// `dir` once every link is followed. A path naming nothing is inside (it gets the app's
/// `index.html` or a 404).
pub fn inside(dir: &Path, uri_path: &str) -> bool {
    let Ok(root) = dir.canonicalize() else { return false };
    let mut target = root.clone();
    for part in decode(uri_path).split(|&b| b == b'/') {
        if part.is_empty() || part == b"." {
            continue;
        }
        let part = os_str(part);
        match Path::new(&part).components().next() {
            Some(Component::Normal(_)) if Path::new(&part).components().count() == 1 => target.push(&part),
            // `..`, a root or a prefix: ServeDir refuses these anyway; so does this.
            _ => return false,
        }
    }
    let resolved = |p: &Path| -> Option<PathBuf> { p.canonicalize().ok() };
    match resolved(&target) {
        None => true,
        Some(real) if !real.starts_with(&root) => false,
        Some(real) if real.is_dir() => resolved(&real.join("index.html")).is_none_or(|i| i.starts_with(&root)),
        Some(_) => true,
    }
}

/// Percent-decoding of a URI path, as `ServeDir` does before it looks for the file.
pub(crate) fn decode(s: &str) -> Vec<u8> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let hex = |c: u8| (c as char).to_digit(16);
        if b[i] == b'%' && i + 2 < b.len() {
            if let (Some(h), Some(l)) = (hex(b[i + 1]), hex(b[i + 2])) {
                out.push((h * 16 + l) as u8);
                i += 3;
                continue;
            }
        }
        out.push(b[i]);
        i += 1;
    }
    out
}

#[cfg(unix)]
fn os_str(b: &[u8]) -> std::ffi::OsString {
    use std::os::unix::ffi::OsStrExt;
    std::ffi::OsStr::from_bytes(b).to_os_string()
}

#[cfg(not(unix))]
fn os_str(b: &[u8]) -> std::ffi::OsString {
    String::from_utf8_lossy(b).into_owned().into()
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn links_out_of_the_directory_are_outside() {
        let base = std::env::temp_dir().join(format!("rumis-webdir-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&base);
        let web = base.join("web");
        std::fs::create_dir_all(web.join("assets")).unwrap();
        std::fs::create_dir_all(base.join("secret")).unwrap();
        std::fs::write(web.join("index.html"), "app").unwrap();
        std::fs::write(base.join("secret/key.txt"), "secret").unwrap();
        std::os::unix::fs::symlink(base.join("secret/key.txt"), web.join("leak.txt")).unwrap();
        std::os::unix::fs::symlink(base.join("secret"), web.join("assets/dir")).unwrap();
        std::os::unix::fs::symlink(web.join("index.html"), web.join("alias.html")).unwrap();
        assert!(inside(&web, "/"));
        assert!(inside(&web, "/index.html"));
        assert!(inside(&web, "/alias.html"), "a link that stays inside");
        assert!(inside(&web, "/no/such/file"));
        assert!(!inside(&web, "/leak.txt"));
        assert!(!inside(&web, "/%6Ceak.txt"), "percent-encoded");
        assert!(!inside(&web, "/assets/dir/key.txt"));
        assert!(!inside(&web, "/assets/dir"));
        assert!(!inside(&web, "/assets/dir/"));
        assert!(!inside(&web, "/assets/%2e%2e/%2e%2e/secret/key.txt"));
        let _ = std::fs::remove_dir_all(&base);
    }
}

//! The PostgreSQL crash test (tests/cli/serve_crash.rs) runs only when `RUMIS_TEST_POSTGRES_URL`
//! is set as it is built, and is listed as ignored otherwise: as in crates/rumis-server/build.rs.
fn main() {
    println!("cargo::rerun-if-env-changed=RUMIS_TEST_POSTGRES_URL");
    println!("cargo::rustc-check-cfg=cfg(rumis_postgres_tests)");
    if std::env::var_os("RUMIS_TEST_POSTGRES_URL").is_some_and(|url| !url.is_empty()) {
        println!("cargo::rustc-cfg=rumis_postgres_tests");
    }
}

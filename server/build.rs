//! Rebuilds the server when a web-client file changes, since the client is embedded with
//! `include_dir!` (which cannot tell cargo what it read on stable Rust), and tells the
//! end-to-end tests which outside services the machine names: a test that needs PostgreSQL or
//! NATS is reported as ignored, with the variable it needs, unless that variable is set (and
//! then it runs, and fails when the service does not answer).

/// Each variable naming a test service, and the `cfg` set while it is set.
const TEST_SERVICES: [(&str, &str); 2] = [
    ("WARROOM_TEST_POSTGRES_URL", "warroom_test_postgres"),
    ("WARROOM_TEST_NATS_URL", "warroom_test_nats"),
];

fn main() {
    println!("cargo::rerun-if-changed=../web-client");
    // sqlx::migrate! embeds the migrations but cannot tell cargo about a new file either.
    println!("cargo::rerun-if-changed=../migrations");
    for (variable, cfg) in TEST_SERVICES {
        println!("cargo::rustc-check-cfg=cfg({cfg})");
        println!("cargo::rerun-if-env-changed={variable}");
        if std::env::var_os(variable).is_some_and(|value| !value.is_empty()) {
            println!("cargo::rustc-cfg={cfg}");
        }
    }
}

//! Rebuilds the server when a web-client file changes, since the client is embedded with
//! `include_dir!` (which cannot tell cargo what it read on stable Rust).

fn main() {
    println!("cargo:rerun-if-changed=../web-client");
    // sqlx::migrate! embeds the migrations but cannot tell cargo about a new file either.
    println!("cargo:rerun-if-changed=../migrations");
}

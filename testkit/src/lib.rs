//! What the end-to-end tests (`tests/e2e`, an integration test of warroom-server) and the
//! benchmarks (`bench`) share to drive a warroom server from outside, so that neither keeps a
//! copy: [`http`], a client for its REST API, and [`db`], a fresh database per run. A crate of its own because both reach it (the
//! bench depends on the server, the tests are the server's), and so that the server itself
//! never links it.

pub mod db;
pub mod http;

pub use db::FreshDb;
pub use http::{Answer, Http};

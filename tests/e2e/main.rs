//! The end-to-end tests, one binary (each test binary costs a link on a cold CI machine): real
//! servers on ephemeral ports over real databases, real WebSocket clients, the real binary for
//! the crash tests. Each module covers one area.

#[macro_use]
mod common;

mod away;
mod bots;
mod catch_up;
mod chat;
mod clocks;
mod cluster;
mod cluster_failover;
mod cluster_ratings;
mod cluster_relay;
mod cluster_secrets;
mod contract;
mod durability;
mod errors;
mod eviction;
mod expiry;
mod leases;
mod limits;
mod lobby;
mod ops;
mod outage;
mod play;
mod players;
mod postgres;
mod presence;
mod privacy;
mod proxy_deploy;
mod quick_play;
mod ratings;
mod rematch;
mod replays;

//! Cluster mode (`--nats-url`, docs/SCALING.md): several nodes over one PostgreSQL, each room
//! served by the one node holding its lease. `leasing.rs` is this node's side of the leases
//! (`store/leases.rs` the SQL, `store/writer.rs` the fenced append).

pub mod leasing;

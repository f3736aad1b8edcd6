//! Wire types of the Specdesk service API (`shared/spec/service-api.md`).
//!
//! One module per area of the service. Field names are exactly the spec's; every optional field is an
//! `Option`; every closed set of strings is an enum that keeps a value it does not know in `Unknown`,
//! so a new value from the service never breaks decoding. Unknown extra fields are ignored (error
//! bodies and gateway `svc` objects keep theirs in `extra`).
//!
//! With the `ts` feature every type derives TypeScript bindings with ts-rs; `cargo test -p
//! specdesk-types --features ts` writes them to `ui/src/bindings/` (see `.cargo/config.toml`).

#[macro_use]
mod macros;

pub mod agents;
pub mod error;
pub mod gateway;
pub mod plans;
pub mod specs;

pub use agents::*;
pub use error::*;
pub use gateway::*;
pub use plans::*;
pub use specs::*;

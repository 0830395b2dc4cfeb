//! The HTTP routes (`/api/v1/...`, the operators' `/healthz`, `/readyz`, `/metrics`) and the
//! WebSockets, one module per part of the API.

pub(crate) mod games;
pub(crate) mod lobby;
pub(crate) mod ops;

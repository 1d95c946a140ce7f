//! The error of a path-selection request.

/// Something about a path-selection request that cannot work; the message
/// names the field and the accepted values.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct PathError(pub String);

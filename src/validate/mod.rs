//! Snippet validation (in progress).

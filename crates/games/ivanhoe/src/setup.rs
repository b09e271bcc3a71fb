//! setup

//! The cardtable server (being written).

//! The plain HTTP API (REST + live page), a thin front end over sessions.

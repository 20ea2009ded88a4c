//! Task files (`tasks/*.toml`): loading, validation, seeded parameters, setup and teardown.

//! UI hierarchy: parse uiautomator dumps, compress them into element lists for LLMs, resolve selectors,
//! mark screenshots, diff observations.

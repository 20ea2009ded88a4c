//! LLM judges over OpenAI-compatible endpoints, two-judge cross-validation and calibration.

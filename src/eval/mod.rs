//! Rule-based evaluators: pure checks over device state read through the device layer.

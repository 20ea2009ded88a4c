//! ADB: the adb server's host protocol (client side, for real phones and emulators) and the device-side
//! transport that serves the embedded phone to real adb clients.

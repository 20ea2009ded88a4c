"""AndroidWorld's system toggles done through droidmcp's Settings goldens (see android-world-classes.py)."""

DRIVES = {
    "SystemWifiTurnOn": lambda task: ("aw.settings.wifi_on", {}),
    "SystemWifiTurnOff": lambda task: ("aw.settings.wifi_off", {}),
    "SystemBluetoothTurnOn": lambda task: ("aw.settings.bluetooth_on", {}),
    "SystemBluetoothTurnOff": lambda task: ("aw.settings.bluetooth_off", {}),
    "SystemBrightnessMax": lambda task: ("aw.settings.brightness_max", {}),
    "SystemBrightnessMin": lambda task: ("aw.settings.brightness_min", {}),
}

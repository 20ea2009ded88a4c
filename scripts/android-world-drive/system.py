"""AndroidWorld's system toggles done through droidmcp's Settings goldens (see android-world-classes.py)."""

# AndroidWorld's app names (`_APP_NAME_TO_PACKAGE_NAME`) as the phone's launcher labels them.
LABELS = {"camera": "Camera", "clock": "Clock", "contacts": "Contacts", "settings": "Settings",
          "dialer": "Phone"}

DRIVES = {
    "SystemWifiTurnOn": lambda task: ("aw.settings.wifi_on", {}),
    "SystemWifiTurnOff": lambda task: ("aw.settings.wifi_off", {}),
    "SystemBluetoothTurnOn": lambda task: ("aw.settings.bluetooth_on", {}),
    "SystemBluetoothTurnOff": lambda task: ("aw.settings.bluetooth_off", {}),
    "SystemBrightnessMax": lambda task: ("aw.settings.brightness_max", {}),
    "SystemBrightnessMin": lambda task: ("aw.settings.brightness_min", {}),
    "SystemWifiTurnOnVerify": lambda task: ("aw.settings.wifi_on_verify", {}),
    "SystemWifiTurnOffVerify": lambda task: ("aw.settings.wifi_off_verify", {}),
    "SystemBluetoothTurnOnVerify": lambda task: ("aw.settings.bluetooth_on_verify", {}),
    "SystemBluetoothTurnOffVerify": lambda task: ("aw.settings.bluetooth_off_verify", {}),
    "SystemBrightnessMaxVerify": lambda task: ("aw.settings.brightness_max_verify", {}),
    "SystemBrightnessMinVerify": lambda task: ("aw.settings.brightness_min_verify", {}),
    "TurnOffWifiAndTurnOnBluetooth": lambda task: ("aw.settings.wifi_off_bluetooth_on", {}),
    "TurnOnWifiAndOpenApp": lambda task: ("aw.system.wifi_on_open_app", {"app": LABELS.get(task.params["app_name"], task.params["app_name"])}),
    "OpenAppTaskEval": lambda task: ("aw.system.open_app", {"app": LABELS.get(task.params["app_name"], task.params["app_name"])}),
    "SystemCopyToClipboard": lambda task: ("aw.system.copy_to_clipboard", {"text": task.params["clipboard_content"]}),
}

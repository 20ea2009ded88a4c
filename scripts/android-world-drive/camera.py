"""Drive entries for AndroidWorld's Camera classes (tasks/aw_camera.toml)."""

DRIVES = {
    "CameraTakePhoto": lambda task: ("aw.camera.take_photo", {}),
    "CameraTakeVideo": lambda task: ("aw.camera.take_video", {}),
}

"""Drive entries for AndroidWorld's Camera classes (tasks/aw_camera.toml)."""

DRIVES = {
    "CameraTakeVideo": lambda task: ("aw.camera.take_video", {}),
}

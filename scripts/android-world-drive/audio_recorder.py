"""Drive entries for AndroidWorld's Audio Recorder classes: each maps a task AndroidWorld drew to
the droidmcp template whose golden does that goal (tasks/aw_audio_recorder.toml)."""

DRIVES = {
    "AudioRecorderRecordAudio": lambda task: ("aw.audio_recorder.record_audio", {}),
    "AudioRecorderRecordAudioWithFileName": lambda task: (
        "aw.audio_recorder.record_audio_with_file_name",
        {"file_name": task.params["file_name"]},
    ),
}

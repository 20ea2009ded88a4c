"""AndroidWorld's Clock classes done through droidmcp's goldens (see android-world-classes.py)."""

DRIVES = {
    "ClockStopWatchRunning": lambda task: ("aw.clock.stopwatch_running", {}),
    "ClockStopWatchPausedVerify": lambda task: ("aw.clock.stopwatch_paused_verify", {}),
    # The timer's fields as the template types them: hours, then the tens and ones of minutes and
    # seconds.
    "ClockTimerEntry": lambda task: (
        "aw.clock.timer_entry",
        {
            "h": str(task.params["hours"]),
            "mt": str(task.params["minutes"] // 10),
            "mo": str(task.params["minutes"] % 10),
            "st": str(task.params["seconds"] // 10),
            "so": str(task.params["seconds"] % 10),
        },
    ),
}

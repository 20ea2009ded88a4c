"""Drive entries for AndroidWorld's Retro Music classes: each maps the task AndroidWorld drew to the
aw.retro.* template whose golden does that goal (tasks/aw_retro.toml). A template has five song slots
(eleven for the duration task); AndroidWorld's two to five (nine to eleven) songs fill them in order
and the last repeats in the slots left, which the golden's adding again leaves in place. The
playlist name `<theme> <number>` splits into the template's theme and number; noise songs and
lengths are AndroidWorld's own (the drive runs on its setup)."""


def _name(name):
    theme, num = name.rsplit(" ", 1)
    return {"theme": theme, "num": num}


def _songs(files, slots, prefix):
    titles = [f.split(".")[0] for f in files]
    titles += [titles[-1]] * (slots - len(titles))
    return {f"{prefix}{i}": t for i, t in enumerate(titles, start=1)}


def _playlist(task_id):
    def drive(task):
        p = task.params
        return task_id, {**_name(p["playlist_name"]), **_songs(p["files"], 5, "s")}
    return drive


DRIVES = {
    "RetroCreatePlaylist": _playlist("aw.retro.create_playlist"),
    "RetroSavePlaylist": _playlist("aw.retro.save_playlist"),
    "RetroPlayingQueue": lambda task: (
        "aw.retro.playing_queue", _songs(task.params["files"], 5, "s")),
    "RetroPlaylistDuration": lambda task: (
        "aw.retro.playlist_duration",
        {**_name(task.params["playlist_name"]), **_songs(task.params["files"], 11, "t")}),
}

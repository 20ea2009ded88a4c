"""Drive entries for AndroidWorld's VLC classes: each maps the task AndroidWorld drew to the aw.vlc.*
template whose golden does that goal (tasks/aw_vlc.toml). A template has five file slots per
playlist; AndroidWorld's two to five files fill them in order and the last repeats in the slots
left (adding it again brings up VLC's duplication warning, which the golden cancels). A playlist
name `<theme> <qualifier>` splits at AndroidWorld's qualifiers."""

QUALIFIERS = ["Ultimate Collection", "Essentials", "Favorites", "Marathon", "Playlist", "Series",
              "Specials"]


def _name(name, theme="theme", qual="qual"):
    for q in QUALIFIERS:
        if name.endswith(" " + q):
            return {theme: name[: -len(q) - 1], qual: q}
    raise ValueError(f"playlist name {name!r} has none of AndroidWorld's qualifiers")


def _files(files, prefix):
    files = list(files) + [files[-1]] * (5 - len(files))
    return {f"{prefix}{i}": f for i, f in enumerate(files, start=1)}


DRIVES = {
    "VlcCreatePlaylist": lambda task: (
        "aw.vlc.create_playlist",
        {**_name(task.params["playlist_name"]), **_files(task.params["files"], "f")}),
    "VlcCreateTwoPlaylists": lambda task: (
        "aw.vlc.create_two_playlists",
        {**_name(task.params["playlist_name1"], "theme1", "qual1"),
         **_name(task.params["playlist_name2"], "theme2", "qual2"),
         **_files(task.params["files1"], "f"), **_files(task.params["files2"], "g")}),
}

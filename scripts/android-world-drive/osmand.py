"""Drive entries for AndroidWorld's OsmAnd classes: each maps a task AndroidWorld drew (its
`params`) to the droidmcp template whose golden does that goal (tasks/aw_osmand.toml). A
location is one of AndroidWorld's twelve place names or their "lat, lon" text, which are the
templates' own choices; a track's 2 to 4 waypoints pick the template of that many points."""


def _track(task):
    waypoints = task.params["waypoints"]
    params = {f"w{i}": w for i, w in enumerate(waypoints, start=1)}
    return (f"aw.osmand.track_{len(waypoints)}", params)


DRIVES = {
    "OsmAndFavorite": lambda task: (
        "aw.osmand.favorite", {"loc": task.params["location"]}),
    "OsmAndMarker": lambda task: (
        "aw.osmand.marker", {"loc": task.params["location"]}),
    "OsmAndTrack": _track,
}

"""OpenTracks: AndroidWorld's SportsTracker* information-retrieval classes mapped to the
aw.opentracks.* templates whose golden answers the drawn question
(`scripts/android-world-classes.py --drive`). The asked tracks are the class's proto after
`initialize_task` (`task.task.relevant_state`, whose `_without_replacement` values AndroidWorld draws
there and whose distances it has rounded through hundredths of a mile): the first one's name becomes
`n1` (the golden scrolls to it), their activity types, days, minutes and meters the parameters the
answer and droidmcp's own check over the table read. Days come from the proto ("October 12 2023"),
not from `task.params`, which AndroidWorld rewords ("yesterday").
"""

import datetime


def _asked(task):
    return list(task.task.relevant_state.state.sports_activity_app.sports_activities)


def _day(text):
    return datetime.datetime.strptime(text, "%B %d %Y").date().isoformat()


def _bound(task, operation):
    """The day of the exclusion condition on start_date with this operation (the interval's ends)."""
    ops = task.task.relevant_state.exclusion_conditions
    value = next(c.value for c in ops if c.field == "start_date" and c.operation == operation)
    return _day(value)


def _first(task, **params):
    return {"n1": _asked(task)[0].name, **params}


# The order of the class's category list, in which the template names a pair of types.
CATEGORIES = ["running", "cycling", "swimming", "hiking", "mountain biking", "kayaking", "skiing",
              "snow boarding", "skate boarding", "climbing", "inline skating", "sailing"]


def _on_date(task):
    a, b = _asked(task)[:2]
    pair = sorted([a.category, b.category], key=CATEGORIES.index)
    return _first(task, d=_day(a.start_date), cats=",".join(pair))


def _duration(task):
    a = _asked(task)[0]
    return _first(task, c=a.category, d=_day(a.start_date), m=a.duration)


def _longest(task):
    a = _asked(task)[0]
    return _first(task, c=a.category, x=a.total_distance)


# task.proto's ExclusionCondition.Operation values.
GREATER_THAN_OR_EQUAL_TO = 5
LESS_THAN_OR_EQUAL_TO = 6


def _total_distance(task):
    a, b = _asked(task)[:2]
    return _first(
        task,
        c=a.category,
        s=_bound(task, GREATER_THAN_OR_EQUAL_TO),
        e2=_bound(task, LESS_THAN_OR_EQUAL_TO),
        x=f"{a.total_distance},{b.total_distance}",
    )


def _total_duration(task):
    a, b = _asked(task)[:2]
    return _first(task, c=a.category, m=f"{a.duration},{b.duration}")


DRIVES = {
    "SportsTrackerActivitiesOnDate": lambda task: ("aw.opentracks.activities_on_date", _on_date(task)),
    "SportsTrackerActivitiesCountForWeek": lambda task: (
        "aw.opentracks.activities_count_for_week",
        # The count AndroidWorld asks about is its asked tracks' (two), which droidmcp draws as `k`.
        {**_first(task, c=_asked(task)[0].category), "k": str(len(_asked(task)))},
    ),
    "SportsTrackerActivityDuration": lambda task: ("aw.opentracks.activity_duration", _duration(task)),
    "SportsTrackerLongestDistanceActivity": lambda task: ("aw.opentracks.longest_distance_activity", _longest(task)),
    "SportsTrackerTotalDistanceForCategoryOverInterval": lambda task: (
        "aw.opentracks.total_distance_for_category_over_interval",
        _total_distance(task),
    ),
    "SportsTrackerTotalDurationForCategoryThisWeek": lambda task: (
        "aw.opentracks.total_duration_for_category_this_week",
        _total_duration(task),
    ),
}

"""AndroidWorld's Simple Calendar Pro classes done through droidmcp's goldens
(tasks/aw_simple_calendar.toml; see android-world-classes.py): each maps the instance AndroidWorld
drew (its target row's start, title, description and length, the day it deletes on) to the template
parameters that make the golden do that goal."""

import datetime


def _start(task) -> str:
    """The target event's start as the templates' datetime override ("YYYY-MM-DD HH:MM", UTC)."""
    row = task.params["row_objects"][0]
    t = datetime.datetime.fromtimestamp(row.start_ts, datetime.timezone.utc)
    return t.strftime("%Y-%m-%d %H:%M")


def _add(template):
    return lambda task: (
        template,
        {
            "start": _start(task),
            "dur": str(task.params["duration_mins"]),
            "title": task.params["event_title"],
            "desc": task.params["event_description"],
        },
    )


def _day(task) -> str:
    p = task.params
    return f"{p['year']:04d}-{p['month']:02d}-{p['day']:02d}"


DRIVES = {
    "SimpleCalendarAddOneEvent": _add("aw.simple_calendar.add_one_event"),
    "SimpleCalendarAddOneEventRelativeDay": _add("aw.simple_calendar.add_one_event_relative_day"),
    "SimpleCalendarAddOneEventTomorrow": _add("aw.simple_calendar.add_one_event_tomorrow"),
    "SimpleCalendarAddOneEventInTwoWeeks": _add("aw.simple_calendar.add_one_event_in_two_weeks"),
    "SimpleCalendarAddRepeatingEvent": lambda task: (
        "aw.simple_calendar.add_repeating_event",
        {**_add("")(task)[1], "rep": task.params["repeat_rule"]},
    ),
    "SimpleCalendarDeleteEvents": lambda task: ("aw.simple_calendar.delete_events", {"d": _day(task)}),
    "SimpleCalendarDeleteOneEvent": lambda task: (
        "aw.simple_calendar.delete_one_event",
        {"d": _day(task), "h": str(task.params["hour"]), "title": task.params["event_title"]},
    ),
    "SimpleCalendarDeleteEventsOnRelativeDay": lambda task: (
        "aw.simple_calendar.delete_events_on_relative_day",
        {"d": _day(task)},
    ),
}

"""AndroidWorld's Simple Calendar Pro classes done through droidmcp's goldens
(tasks/aw_simple_calendar.toml; see android-world-classes.py): each maps the instance AndroidWorld
drew (its target row's start, title, description and length, the day it deletes on; for the
information-retrieval classes the events its task proto put on the phone) to the template
parameters that make the golden do that goal or give that answer."""

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


def _events(task):
    """The events an information-retrieval task put on the phone for its answer."""
    return task.task.relevant_state.state.calendar.events


def _iso(date: str) -> str:
    """"October 16 2023" as the templates' date override."""
    return datetime.datetime.strptime(date.strip(), "%B %d %Y").strftime("%Y-%m-%d")


def _title_on_day(key, time_key=None):
    """The day and title of the task's event, and its start time when the question names it."""

    def params(task):
        e = _events(task)[0]
        out = {"d": _iso(e.start_date), key: e.title}
        if time_key:
            out[time_key] = e.start_time
        return out

    return params


def _ir(template, params):
    return lambda task: (template, params(task))


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
    "SimpleCalendarEventsOnDate": _ir("aw.simple_calendar.ir_events_on_date", _title_on_day("a")),
    "SimpleCalendarEventOnDateAtTime": _ir(
        "aw.simple_calendar.ir_event_on_date_at_time", _title_on_day("x", "st")
    ),
    "SimpleCalendarFirstEventAfterStartTime": _ir(
        "aw.simple_calendar.ir_first_event_after_start_time", _title_on_day("x", "st")
    ),
    "SimpleCalendarEventsInTimeRange": _ir(
        "aw.simple_calendar.ir_events_in_time_range", _title_on_day("x", "st")
    ),
    "SimpleCalendarAnyEventsOnDate": _ir(
        "aw.simple_calendar.ir_any_events_on_date",
        lambda task: {
            "d": _iso(_events(task)[0].start_date),
            **{k: e.title for k, e in zip("abc", _events(task))},
        },
    ),
    # AndroidWorld's answer is its own event, whatever time it drew. One of its times, "12:00am"
    # (seed 0), is midnight this morning, before the phone's 15:34, so a noise event later today
    # is the real next one: droidmcp's check (the earliest event after now) says FAIL where
    # AndroidWorld scores its own answer 1.
    "SimpleCalendarNextEvent": _ir(
        "aw.simple_calendar.ir_next_event", lambda task: {"x": _events(task)[0].title}
    ),
    "SimpleCalendarNextMeetingWithPerson": _ir(
        "aw.simple_calendar.ir_next_meeting_with_person",
        lambda task: {
            "person": _events(task)[0].title.split(" with ", 1)[1],
            "d": _iso(_events(task)[0].start_date),
            "t": _events(task)[0].start_time,
        },
    ),
    "SimpleCalendarLocationOfEvent": _ir(
        "aw.simple_calendar.ir_location_of_event",
        lambda task: {
            "d": _iso(_events(task)[0].start_date),
            "title": _events(task)[0].title,
            "loc": _events(task)[0].location,
        },
    ),
    "SimpleCalendarEventsInNextWeek": _ir(
        "aw.simple_calendar.ir_events_in_next_week",
        lambda task: {"a": _events(task)[0].title, "b": _events(task)[1].title},
    ),
}

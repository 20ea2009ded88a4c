"""Tasks: AndroidWorld's Tasks* information-retrieval classes mapped to the aw.tasks.* templates
whose golden answers the drawn question (`scripts/android-world-classes.py --drive`). The tasks a
question is about are the class's proto after `initialize_task` (`task.task.relevant_state`, whose
`_without_replacement` titles AndroidWorld draws there, not in `task.params`): their titles become
`t1`..`t3` (or `t`), their number `k`, their due day `d` (which droidmcp's own answer check reads the
table for).
"""

import datetime


def _asked(task):
    return list(task.task.relevant_state.state.tasks_app.tasks_app_tasks)


def _titles(task):
    return {f"t{k}": t.title for k, t in enumerate(_asked(task), start=1)}


def _title(task):
    return {"t": _asked(task)[0].title}


def _on_day(params):
    """`params` and `d`, the asked tasks' due day ("October 16 2023") as the template's date."""
    def with_day(task):
        day = datetime.datetime.strptime(_asked(task)[0].due_date, "%B %d %Y").date()
        return {**params(task), "d": day.isoformat()}

    return with_day


DRIVES = {
    "TasksDueOnDate": lambda task: ("aw.tasks.due_on_date", _on_day(_titles)(task)),
    "TasksHighPriorityTasks": lambda task: ("aw.tasks.high_priority", _title(task)),
    "TasksHighPriorityTasksDueOnDate": lambda task: ("aw.tasks.high_priority_due_on_date", _on_day(_title)(task)),
    "TasksDueNextWeek": lambda task: ("aw.tasks.due_next_week", {"k": str(len(_asked(task)))}),
    "TasksCompletedTasksForDate": lambda task: ("aw.tasks.completed_for_date", _on_day(_titles)(task)),
    "TasksIncompleteTasksOnDate": lambda task: ("aw.tasks.incomplete_on_date", _on_day(_titles)(task)),
}

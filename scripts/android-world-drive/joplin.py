"""Joplin: AndroidWorld's Notes* information-retrieval classes mapped to the aw.joplin.* templates
whose golden answers the drawn question (`scripts/android-world-classes.py --drive`). The asked
note's title and notebook (the golden opens it from the sidebar), and what the answer is (to-do or not, the attendee count `k`, the ingredient's
quantity `q`), come from the class's drawn parameters (`task.params`); the to-do count needs only
the notebook, as droidmcp's answer check counts the to-dos in it.
"""

DRIVES = {
    "NotesIsTodo": lambda task: (
        "aw.joplin.is_todo",
        {"title": task.params["title"], "is_todo": task.params["is_todo"], "folder": task.params["folder"]},
    ),
    "NotesMeetingAttendeeCount": lambda task: (
        "aw.joplin.meeting_attendee_count",
        {"title": task.params["title"], "k": task.params["attendee_count"]},
    ),
    "NotesRecipeIngredientCount": lambda task: (
        "aw.joplin.recipe_ingredient_count",
        {
            "title": task.params["title"],
            "q": task.params["ingredient_quantity"],
            "ingredient": task.params["ingredient"],
        },
    ),
    # AndroidWorld always asks about three to-dos (`k`, which droidmcp draws in 1..3).
    "NotesTodoItemCount": lambda task: ("aw.joplin.todo_item_count", {"folder": task.params["folder"], "k": "3"}),
}

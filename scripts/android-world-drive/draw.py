"""Simple Draw Pro: AndroidWorld's SimpleDrawProCreateDrawing mapped to aw.draw.create_drawing
(`scripts/android-world-classes.py --drive`). AndroidWorld's name is `<word>_<file name><ext>`; the
template takes the word, the file name's stem and the extension apart, since the save dialog takes
the stem as text and the extension as a format button."""

import os


def _drawing(task):
    stem, ext = os.path.splitext(task.params["file_name"])
    word, name = stem.split("_", 1)
    return ("aw.draw.create_drawing", {"dest": "Pictures", "word": word, "name": name, "fmt": ext})


DRIVES = {
    "SimpleDrawProCreateDrawing": _drawing,
}

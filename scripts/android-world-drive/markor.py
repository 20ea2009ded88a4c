"""Drive entries for AndroidWorld's Markor and Files classes: each maps a task AndroidWorld drew
(its `params`, and what `initialize_task` wrote) to the droidmcp template whose golden does that
goal, with the template parameters that make it (tasks/aw_markor.toml, tasks/aw_files.toml).
MarkorTranscribeReceipt's receipt is read in Simple Gallery Pro; MarkorTranscribeVideo has none:
its viewer app (VLC) is not on the phone."""


def _unescaped(text):
    """file_utils.create_file returns the text as it quoted it for `echo '…'`."""
    return text.replace("'\"'\"'", "'")


def _edit_note(task):
    p = task.params
    name = p["file_name"]
    kind = p["edit_type"]
    if kind == "header":
        return ("aw.markor.edit_note_header",
                {"file_name": name, "header": p["header"],
                 "original": _unescaped(task.original_content)})
    if kind == "footer":
        return ("aw.markor.edit_note_footer",
                {"file_name": name, "footer": p["footer"],
                 "original": _unescaped(task.original_content)})
    first, second, third = p["replace_text"].split("\n")
    return ("aw.markor.edit_note_replace",
            {"file_name": name, "first": first, "second": second, "third": third})


def _newest(task):
    """The newest note, and the next newest and the oldest as the notes that must stay (the
    same one when AndroidWorld made two)."""
    names = [f.file_name for f in task.initial_file_list_sorted]
    return ("aw.markor.delete_newest_note",
            {"newest": names[-1], "older": names[-2], "oldest": names[0]})


DRIVES = {
    "MarkorCreateNote": lambda task: (
        "aw.markor.create_note",
        {"file_name": task.params["file_name"], "text": task.params["text"]}),
    # The names on the video's frames (watched in VLC) written as AndroidWorld's `text`: a note
    # created with that text is what its CreateFile check reads.
    "MarkorTranscribeVideo": lambda task: (
        "aw.markor.create_note",
        {"file_name": task.params["file_name"], "text": task.params["text"]}),
    "MarkorCreateFolder": lambda task: (
        "aw.markor.create_folder", {"folder_name": task.params["folder_name"]}),
    "MarkorEditNote": _edit_note,
    "MarkorDeleteNote": lambda task: (
        "aw.markor.delete_note", {"file_name": task.params["file_name"]}),
    "MarkorDeleteNewestNote": _newest,
    "MarkorDeleteAllNotes": lambda task: ("aw.markor.delete_all_notes", {}),
    "MarkorMoveNote": lambda task: (
        "aw.markor.move_note",
        {"file_name": task.params["file_name"], "source": task.params["source_folder"],
         "destination": task.params["destination_folder"]}),
    "MarkorCreateNoteFromClipboard": lambda task: (
        "aw.markor.create_note_from_clipboard",
        {"file_name": task.params["file_name"], "file_content": task.params["file_content"]}),
    "MarkorMergeNotes": lambda task: (
        "aw.markor.merge_notes",
        {"new_file": task.params["new_file_name"],
         "content1": task.params["file1_content"], "content2": task.params["file2_content"],
         "content3": task.params["file3_content"]}),
    "MarkorChangeNoteContent": lambda task: (
        "aw.markor.change_note_content",
        {"original_name": task.params["original_name"], "new_name": task.params["new_name"],
         "updated_content": task.params["updated_content"]}),
    "MarkorAddNoteHeader": lambda task: (
        "aw.markor.add_note_header",
        {"original_name": task.params["original_name"], "new_name": task.params["new_name"],
         "header": task.params["header"],
         "original_content": task.params["original_content"]}),
    "MarkorCreateNoteAndSms": lambda task: (
        "aw.markor.create_note_and_sms",
        {"file_name": task.params["file_name"], "text": task.params["text"],
         "number": task.params["number"]}),
    # AndroidWorld's text is the CSV header, then the receipt's transaction lines.
    "MarkorTranscribeReceipt": lambda task: (
        "aw.markor.transcribe_receipt", {"rows": task.params["text"].split("\n", 1)[1]}),
    "FilesMoveFile": lambda task: (
        "aw.files.move_file",
        {"file_name": task.params["file_name"], "source": task.params["source_folder"],
         "destination": task.params["destination_folder"]}),
    "FilesDeleteFile": lambda task: (
        "aw.files.delete_file",
        {"file_name": task.params["file_name"], "subfolder": task.params["subfolder"]}),
}

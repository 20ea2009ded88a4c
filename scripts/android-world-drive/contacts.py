"""AndroidWorld's contact and text-message classes done through droidmcp's goldens
(see android-world-classes.py)."""

DRIVES = {
    "ContactsAddContact": lambda task: (
        "aw.contacts.add_contact",
        {"name": task.params["name"], "number": task.params["number"]},
    ),
    "SimpleSmsSend": lambda task: (
        "aw.sms.send",
        {"number": task.params["number"], "message": task.params["message"]},
    ),
}

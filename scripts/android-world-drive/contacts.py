"""AndroidWorld's contact and text-message classes done through droidmcp's goldens
(see android-world-classes.py)."""


def e164(number: str) -> str:
    """A North American number as droidmcp's parameters spell it: +1 and ten digits."""
    digits = "".join(c for c in number if c.isdigit())
    return "+1" + digits[-10:]


DRIVES = {
    "ContactsAddContact": lambda task: (
        "aw.contacts.add_contact",
        {"name": task.params["name"], "number": e164(task.params["number"])},
    ),
    "SimpleSmsSend": lambda task: (
        "aw.simple_sms.send",
        {"number": e164(task.params["number"]), "message": task.params["message"]},
    ),
}

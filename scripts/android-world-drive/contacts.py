"""AndroidWorld's contact and text-message classes done through droidmcp's goldens
(see android-world-classes.py)."""


def e164(number: str) -> str:
    """A North American number as droidmcp's parameters spell it: +1 and ten digits."""
    digits = "".join(c for c in number if c.isdigit())
    return "+1" + digits[-10:]


def _sms(task):
    """The text AndroidWorld's SimpleSMSSendSms checks for: its number and message. Replying,
    forwarding a received address and sending the clip all end in that one sent text."""
    return ("aw.simple_sms.send", {"number": e164(task.params["number"]), "message": task.params["message"]})


DRIVES = {
    "ContactsAddContact": lambda task: (
        "aw.contacts.add_contact",
        {"name": task.params["name"], "number": e164(task.params["number"])},
    ),
    "SimpleSmsSend": lambda task: (
        "aw.simple_sms.send",
        {"number": e164(task.params["number"]), "message": task.params["message"]},
    ),
    "ContactsNewContactDraft": lambda task: (
        "aw.contacts.new_contact_draft",
        {"first": task.params["first"], "last": task.params["last"],
         "phone": e164(task.params["phone"]), "label": task.params["phone_label"]},
    ),
    "SimpleSmsReply": _sms,
    "SimpleSmsReplyMostRecent": _sms,
    # AndroidWorld leaves the thread open; the golden retypes the message read off it.
    "SimpleSmsResend": lambda task: ("aw.simple_sms.resend", _sms(task)[1]),
    # The clip AndroidWorld set pasted into the text (the golden never types the message).
    "SimpleSmsSendClipboardContent": lambda task: ("aw.simple_sms.send_clipboard_content", _sms(task)[1]),
    "SimpleSmsSendReceivedAddress": _sms,
}

"""Simple Gallery Pro: AndroidWorld's SaveCopyOfReceiptTaskEval mapped to aw.gallery.save_copy_of_receipt
(`scripts/android-world-classes.py --drive`). AndroidWorld names the receipt `receipt_<file name>.jpg`;
the template's `file` is the part after `receipt_`."""


def _receipt(task):
    return ("aw.gallery.save_copy_of_receipt",
            {"dest": "Download", "file": task.params["file_name"][len("receipt_"):]})


DRIVES = {
    "SaveCopyOfReceiptTaskEval": _receipt,
}

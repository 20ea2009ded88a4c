"""Pro Expense: AndroidWorld's Expense* classes mapped to the aw.expense.* templates whose golden
does the drawn goal (`scripts/android-world-classes.py --drive`). Rows become the templates'
parameters: name `eK`, amount as dollars `dK` and cents `cK`, note `nK`. Rows to delete are passed
in the order the app lists them (newest first), since the golden scrolls down to each in turn.
"""


def _row(k, row):
    return {f"e{k}": row.name, f"d{k}": str(row.amount // 100), f"c{k}": str(row.amount % 100), f"n{k}": row.note}


def _rows(rows):
    params = {}
    for k, row in enumerate(rows, start=1):
        params.update(_row(k, row))
    return params


def _listed(rows):
    # ExpenseDao's order: created_date DESC, then the newer row first.
    return sorted(rows, key=lambda r: (r.created_date, r.expense_id), reverse=True)


def _added(task):
    return _rows(task.params["row_objects"])


DRIVES = {
    "ExpenseAddSingle": lambda task: ("aw.expense.add_single", _added(task)),
    "ExpenseAddMultiple": lambda task: ("aw.expense.add_multiple", _added(task)),
    "ExpenseAddMultipleFromMarkor": lambda task: ("aw.expense.add_multiple_from_markor", _added(task)),
    "ExpenseAddMultipleFromGallery": lambda task: ("aw.expense.add_multiple_from_gallery", _added(task)),
    "ExpenseDeleteSingle": lambda task: ("aw.expense.delete_single", _rows(_listed(task.rows_to_delete))),
    "ExpenseDeleteMultiple": lambda task: ("aw.expense.delete_multiple", _rows(_listed(task.rows_to_delete))),
    "ExpenseDeleteMultiple2": lambda task: ("aw.expense.delete_multiple_2", _rows(_listed(task.rows_to_delete))),
    "ExpenseDeleteDuplicates": lambda task: ("aw.expense.delete_duplicates", _row(1, task.rows_to_delete[0])),
    "ExpenseDeleteDuplicates2": lambda task: ("aw.expense.delete_duplicates_2", _row(1, task.rows_to_delete[0])),
}

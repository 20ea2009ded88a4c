"""Broccoli: AndroidWorld's Recipe* classes mapped to the aw.recipe.* templates whose golden does
the drawn goal (`scripts/android-world-classes.py --drive`). A recipe becomes the templates'
parameters: title `rK`, description `sK`, servings `vK`, preparation time `pK`, ingredients `iK`,
and `aK`, the sentence AndroidWorld added to the pool recipe's directions (the template's `rK.dir`).
"""


def _row(k, row):
    # Imported here: the drive modules load before AndroidWorld's checkout is on the path.
    from android_world.task_evals.single import recipe  # pylint: disable=import-outside-toplevel

    base = next(r.directions for r in recipe._RECIPES if r.title == row.title)  # pylint: disable=protected-access
    return {
        f"r{k}": row.title,
        f"s{k}": row.description,
        f"v{k}": row.servings,
        f"p{k}": row.preparationTime,
        f"i{k}": row.ingredients,
        f"a{k}": row.directions[len(base) + 1 :],
    }


def _rows(rows):
    params = {}
    for k, row in enumerate(rows, start=1):
        params.update(_row(k, row))
    return params


def _added(task):
    return _rows(task.params["row_objects"])


def _deleted(task):
    return _rows(task.rows_to_delete)


def _one_time(task):
    # One preparation time for all three (`pt`), asked in the goal.
    params = {k: v for k, v in _added(task).items() if not k.startswith("p")}
    params["pt"] = task.params["prep_time"]
    return params


def _constrained(task):
    """The recipes whose directions use the ingredient. AndroidWorld draws them among recipes of its
    pool that mention it; when none does (seed 0's escargot, seed 2's quail eggs) it sets up nothing
    to delete, so its check passes untouched and there is nothing to drive (None)."""
    rows = task.rows_to_delete
    if not rows:
        return None
    if len(rows) == 1:
        return ("aw.recipe.delete_single_with_noise", _deleted(task))
    if len(rows) == 3:
        return ("aw.recipe.delete_multiple_with_noise", _deleted(task))
    raise ValueError(f"no template deletes {len(rows)} recipes")


DRIVES = {
    "RecipeAddSingleRecipe": lambda task: ("aw.recipe.add_single", _added(task)),
    "RecipeAddMultipleRecipes": lambda task: ("aw.recipe.add_multiple", _added(task)),
    "RecipeAddMultipleRecipesFromMarkor": lambda task: ("aw.recipe.add_multiple_from_markor", _added(task)),
    "RecipeAddMultipleRecipesFromMarkor2": lambda task: ("aw.recipe.add_multiple_from_markor_2", _one_time(task)),
    "RecipeAddMultipleRecipesFromImage": lambda task: ("aw.recipe.add_multiple_from_image", _added(task)),
    "RecipeDeleteSingleRecipe": lambda task: ("aw.recipe.delete_single", _deleted(task)),
    "RecipeDeleteSingleWithRecipeWithNoise": lambda task: ("aw.recipe.delete_single_with_noise", _deleted(task)),
    "RecipeDeleteMultipleRecipes": lambda task: ("aw.recipe.delete_multiple", _deleted(task)),
    "RecipeDeleteMultipleRecipesWithNoise": lambda task: ("aw.recipe.delete_multiple_with_noise", _deleted(task)),
    "RecipeDeleteDuplicateRecipes": lambda task: ("aw.recipe.delete_duplicates", _row(1, task.rows_to_delete[0])),
    "RecipeDeleteDuplicateRecipes2": lambda task: ("aw.recipe.delete_duplicates_2", _row(1, task.rows_to_delete[0])),
    "RecipeDeleteDuplicateRecipes3": lambda task: ("aw.recipe.delete_duplicates_3", _row(1, task.rows_to_delete[0])),
    "RecipeDeleteMultipleRecipesWithConstraint": _constrained,
}

"""Chrome: AndroidWorld's BrowserMaze, BrowserMultiply and BrowserDraw mapped to aw.browser.*
(`scripts/android-world-classes.py --drive`). AndroidWorld's pages draw their maze, numbers and
colours from `browser_task_seed` with a linear congruential generator; this file draws the same
values from the same seed (the algorithm as the pages describe it), so droidmcp's golden for
those values solves the page AndroidWorld pushed."""

from collections import deque

# The order of the drawing page's palette, as its buttons are laid out.
PALETTE = [
    "#ff0000", "#00ff00", "#0000ff", "#ffff00", "#ff00ff", "#00ffff",
    "#800000", "#008000", "#000080", "#808000", "#800080", "#008080",
    "#ffa500", "#ff1493", "#9932cc", "#20b2aa", "#4b0082", "#00ff7f",
    "#ff6347", "#00ced1", "#9400d3", "#f0e68c", "#ff8c00", "#228b22",
]
SIZE = 4


class Lcg:
    """The pages' generator: Numerical Recipes' constants modulo 2^32, scaled to [0, 1)."""

    def __init__(self, seed):
        self.seed = seed

    def random(self):
        self.seed = (1664525 * self.seed + 1013904223) % 2**32
        return self.seed / 2**32


def _maze(seed):
    """The open cells of the maze a seed carves: a depth-first walk from the top-left cell that
    shuffles its four directions (kept shuffled from cell to cell) and stops at the bottom-right."""
    rng = Lcg(seed)
    open_cells = set()
    stack = [(0, 0)]
    directions = [(-1, 0), (1, 0), (0, -1), (0, 1)]
    while stack:
        cell = stack.pop()
        open_cells.add(cell)
        if cell == (SIZE - 1, SIZE - 1):
            break
        for i in range(len(directions) - 1, 0, -1):
            j = int(rng.random() * (i + 1))
            directions[i], directions[j] = directions[j], directions[i]
        for dr, dc in directions:
            nxt = (cell[0] + dr, cell[1] + dc)
            if 0 <= nxt[0] < SIZE and 0 <= nxt[1] < SIZE and nxt not in open_cells:
                stack.append(nxt)
    open_cells.add((0, 0))
    open_cells.add((SIZE - 1, SIZE - 1))
    return open_cells


def _route(open_cells):
    """The shortest route from the top-left to the bottom-right cell, as U/D/L/R letters."""
    moves = {"U": (-1, 0), "D": (1, 0), "L": (0, -1), "R": (0, 1)}
    came = {(0, 0): None}
    queue = deque([(0, 0)])
    while queue:
        cell = queue.popleft()
        for name, (dr, dc) in moves.items():
            nxt = (cell[0] + dr, cell[1] + dc)
            if nxt in open_cells and nxt not in came:
                came[nxt] = (cell, name)
                queue.append(nxt)
    route, cell = "", (SIZE - 1, SIZE - 1)
    while came[cell] is not None:
        cell, name = came[cell]
        route = name + route
    return route


def _maze_drive(task):
    return ("aw.browser.maze", {"path": _route(_maze(task.params["browser_task_seed"]))})


def _multiply(task):
    """Five numbers from 1 to 10: one shown on load, one after each of the first four clicks."""
    rng = Lcg(task.params["browser_task_seed"])
    product = 1
    for _ in range(5):
        product *= int(rng.random() * 10) + 1
    return ("aw.browser.multiply", {"product": str(product)})


def _draw(task):
    """Three distinct colours drawn from the palette, each removed once taken."""
    rng = Lcg(task.params["browser_task_seed"])
    remaining = list(PALETTE)
    picked = []
    for _ in range(3):
        picked.append(remaining.pop(int(rng.random() * len(remaining))))
    c1, c2, c3 = (str(PALETTE.index(c)) for c in picked)
    return ("aw.browser.draw", {"c1": c1, "c2": c2, "c3": c3})


DRIVES = {
    "BrowserMaze": _maze_drive,
    "BrowserMultiply": _multiply,
    "BrowserDraw": _draw,
}

"""The score grid's rows as HTML, built in Python.

A sheet of 50 hands is thousands of template nodes (rows × cells × their tags); the
template engine spends most of a sheet request on them. The rows are built here instead,
character for character what ``games/sheet.html`` rendered before (its loop is kept in
``tests/scorekeeper/test_web_sheet_rows.py`` to check that), every value escaped as the
template would.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from django.utils.safestring import SafeString

from scorekeeper.web.scoreboard import BoardLine
from scorekeeper.web.sheet import Cell, Grid, GridRow
from scorekeeper.web.sheet_panel import PanelPlayer

# Indentation as the template had it, so the page's HTML is unchanged.
_ROW = "\n          "
_CELL = "\n            "
_INNER = "\n              "


def _cell(cell: Cell) -> str:
    note = f'<span class="note">{escape(cell.note)}</span>' if cell.note else ""
    return (
        f'{_CELL}<td class="{"out" if cell.out else ""}">'
        f'{_INNER}<span class="pts">{escape(cell.points)}</span>'
        f'{_INNER}<span class="run">{escape(cell.total)}</span>'
        f"{_INNER}{note}"
        f"{_CELL}</td>{_CELL}"
    )


def _row(row: GridRow, colspan: int) -> str:
    number = str(row.number)
    if row.edit_url:
        url = escape(row.edit_url)
        title = f"Correct hand {number} (dealer {escape(row.dealer)})"
        link = (
            f'<a href="{url}" hx-get="{url}" hx-target="#entry" '
            f'hx-swap="outerHTML show:#entry:top" title="{title}">{number}</a>'
        )
    else:
        link = f'<span title="Dealer {escape(row.dealer)}">{number}</span>'
    tag = f'<span class="hand-tag">{escape(row.tag)}</span>' if row.tag else ""
    divider = (
        f'<tr class="divider"><td colspan="{colspan}">{escape(row.divider)}</td></tr>'
        if row.divider
        else ""
    )
    return (
        f'{_ROW}<tr class="hand-row" data-hand="{number}">'
        f'{_CELL}<th scope="row" class="hand-col">'
        f"{_INNER}{link}"
        f"{_INNER}{tag}"
        f"{_CELL}</th>"
        f"{_CELL}{''.join(_cell(cell) for cell in row.cells)}"
        f"{_ROW}</tr>"
        f"{_ROW}{divider}"
        f"{_ROW}"
    )


def grid_rows(grid: Grid) -> SafeString:
    """The ``<tbody>`` rows of the score grid (a "No hands yet." row when there are
    none)."""
    colspan = len(grid.columns) + 1
    if not grid.rows:
        return SafeString(
            f'{_ROW}<tr class="empty"><td colspan="{colspan}">No hands yet.</td></tr>{_ROW}'
        )
    return SafeString("".join(_row(row, colspan) for row in grid.rows))


def grid_footer(grid: Grid) -> SafeString:
    """The ``<tfoot>`` rows of the score grid: totals, rank…"""
    return SafeString(
        "".join(
            f'{_ROW}<tr class="{escape(row.css)}"><th scope="row">{escape(row.label)}</th>'
            + "".join(f"<td>{escape(value)}</td>" for value in row.values)
            + f"</tr>{_ROW}"
            for row in grid.footer
        )
    )


def winner_chips(players: Sequence[PanelPlayer], chosen: str) -> SafeString:
    """The entry's "who went out / who claimed" radio chips, one per player (the one
    ``chosen``, a player id as typed, checked)."""
    return SafeString(
        "".join(
            f'\n    <label class="chip-radio">'
            f'\n      <input type="radio" name="winner" value="{p.id}"'
            f"{' checked' if chosen == str(p.id) else ''}>"
            f"\n      <span>{escape(p.name)}</span>"
            f"\n    </label>\n    "
            for p in players
        )
    )


def board_lines(lines: Sequence[BoardLine]) -> SafeString:
    """The scoreboard's places, leader first (``games/_scoreboard.html``)."""
    out = []
    for line in lines:
        rubbers = ""
        if line.rubbers:
            marks = "".join(
                f'<span class="rubber-mark{" won" if won else ""}" aria-hidden="true"></span>'
                for won in line.rubbers
            )
            won = line.rubbers_won
            rubbers = (
                f'<span class="board-rubbers" title="Rubbers won">{marks}'
                f'<span class="visually-hidden">{won} rubber{"" if won == 1 else "s"} won,'
                "</span></span>"
            )
        marker = getattr(line, "marker", "")
        dot = (
            f'<span class="player-dot {escape(marker)}" aria-hidden="true"></span>'
            if marker
            else ""
        )
        out.append(
            f'\n    <li class="board-line{" leader" if line.leader else ""}">'
            f'\n      <span class="board-place">{escape(line.place)}</span>'
            '\n      <span class="board-who">'
            f'\n        <span class="board-name">{dot}{escape(line.label)}</span>'
            f'\n        <span class="board-need">{escape(line.need)}</span>'
            "\n      </span>"
            '\n      <span class="board-score">'
            f"\n        {rubbers}"
            f'\n        <strong class="board-number">{escape(line.score)}</strong>'
            f'<small class="board-unit">{escape(line.unit)}</small>'
            "\n      </span>"
            "\n    </li>\n    "
        )
    return SafeString("".join(out))

"""Labelled buttons for the backward player of the served dashboard: first, prev, play /
pause, next, last, each with a tooltip, as the exported page has (Panel's Player draws nine
unlabelled icons). They set the Player widget's value; the widget itself keeps its slider.

(Python callbacks, not JavaScript ones: Panel keeps a widget's JavaScript callbacks, with
their arguments, in a registry that a dashboard is never collected from.)
"""
from __future__ import annotations

import panel as pn

PLAY = "▶ play"
PAUSE = "❚❚ pause"


def player_buttons(player: pn.widgets.Player) -> pn.Row:
    """The labelled buttons driving ``player`` (whose own buttons should be hidden)."""
    timer = []          # the running play callback, if any

    def stop():
        while timer:
            timer.pop().stop()
        play.label = PLAY

    def go(value):
        stop()
        player.value = max(player.start, min(player.end, value))

    def tick():
        if player.value >= player.end:
            stop()
        else:
            player.value += 1

    def toggle(event=None):
        if timer:
            stop()
            return
        if player.value >= player.end:
            player.value = player.start
        play.label = PAUSE
        timer.append(pn.state.add_periodic_callback(tick, period=player.interval))

    def button(label, tip, width=68):
        return pn.widgets.Button(label=label, width=width, description=tip)
    first = button("|◀ first", "go to the first backward step")
    prev = button("◀ prev", "one step back")
    play = button(PLAY, "play the backward pass, one step every 0.7 s (click again to pause)", 76)
    nxt = button("next ▶", "one step forward")
    last = button("last ▶|", "go to the last backward step")
    first.on_click(lambda e: go(player.start))
    prev.on_click(lambda e: go(player.value - 1))
    nxt.on_click(lambda e: go(player.value + 1))
    last.on_click(lambda e: go(player.end))
    play.on_click(toggle)
    return pn.Row(first, prev, play, nxt, last, width=420, css_classes=["tv-player-buttons"])

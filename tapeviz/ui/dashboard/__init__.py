"""The Panel dashboard: one page of panes and tabs over a store (``dashboard``), with its
graph pane, tabs, Why cards, training charts, Jacobian view, a flight recording's timeline
(``flight_timeline``) and live following; and the compare view of two runs around it
(``compare_view``).
"""

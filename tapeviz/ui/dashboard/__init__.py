"""The Panel dashboard: one page of panes and tabs over a store (``dashboard``), with its
graph pane, tabs, Why cards, training charts, Jacobian view and live following.
"""

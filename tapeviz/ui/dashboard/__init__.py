"""The Panel dashboard: a thin ``dashboard`` composing components (one
:class:`~tapeviz.ui.dashboard.state.Component` per panel: graph, inspector, backward player,
why cards, variables, training charts, Jacobians, a flight recording's timeline, live
following) that share one :class:`~tapeviz.ui.dashboard.state.DashboardState`; and the compare
view of two runs around it (``compare_view``).
"""

"""The Panel dashboard: a thin ``dashboard`` composing components (one
:class:`~tapeviz.ui.dashboard.state.Component` per panel: graph, inspector, backward player,
why cards, variables, training charts, Jacobians, live following) that share one
:class:`~tapeviz.ui.dashboard.state.DashboardState`.
"""

"""The op graph: Graphviz layout (``dot_layout``, ``piecewise_layout``, ``wrap``, ``group``)
and its Bokeh plot (``plot``, ``plot_js``; the rows it sends in ``columns``).
"""

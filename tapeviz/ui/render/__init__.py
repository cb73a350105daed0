"""HTML and Bokeh pieces with no Panel in them, shared by the served dashboard and the
exported page: cards, backward steps, training-chart plots, small HTML builders; and the
compare view's HTML (``compare_cards``) and overlaid training charts (``compare_charts``).
"""

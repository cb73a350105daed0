"""HTML and Bokeh pieces with no Panel in them, shared by the served dashboard and the
exported page: cards, backward steps, training-chart plots, small HTML builders.
"""

"""The dashboard's data: events in, tables out (no Panel, no Bokeh).

``store`` ingests events into tables (its handlers per event kind: ``tape_events`` and
``gradient_events``); ``source`` turns files, lists and live streams into
event sources; ``tape_graph`` derives one tape's graph from the tables; ``limits`` bounds what
a recording may make the views hold; ``summaries`` and ``chart_series`` shape values for views;
``flight_calls`` keeps a flight recording's call summaries; ``compare_store`` is run a's
store knowing a diff against run b (the compare view's data).
"""

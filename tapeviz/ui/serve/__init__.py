"""Serving dashboards: the ``panel serve`` app, the recording picker of a folder and its
*Compare with* picker (``compare_picker``), who may connect (``access``, ``token_auth``), one
live feed per followed file, a warm first session.
"""

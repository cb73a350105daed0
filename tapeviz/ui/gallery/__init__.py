"""The demo gallery: every classic ``GradientTape`` lesson as a page with its dashboard.
"""

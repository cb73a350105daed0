"""The gallery's index page: a card per demo (thumbnail, title, summary) linking to it.

Served by `tapeviz gallery` (or `panel serve demos/[0-9]*.py demos/index.py --index index
--static-dirs thumbnails=demos/thumbnails`); not a demo itself.
"""
if __name__.startswith("bokeh"):
    from pathlib import Path

    from tapeviz.ui.gallery.gallery import index_page

    index_page(Path(__file__).resolve().parent).servable()

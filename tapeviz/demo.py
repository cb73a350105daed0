"""How a gallery demo runs: as a plain script it prints its lesson (what TensorFlow prints)
and then tapeviz's explanations; under `panel serve` it becomes its gallery page.

Each file in `demos/` ends with::

    if __name__ == "__main__" or __name__.startswith("bokeh"):
        from tapeviz.demo import present
        present(__name__, lesson, __doc__)

Panel is imported only for the page, never for the script.
"""
from __future__ import annotations


def present(module_name: str, lesson, doc: str | None, live: bool = False) -> None:
    """Run `lesson(tf)` the way `module_name` says: a script, or a served page.

    `live=True` trains in a thread once the page is up, so its charts grow step by step."""
    import tapeviz as tf

    if module_name == "__main__":
        print_explanations(lesson(tf))
    elif module_name.startswith("bokeh"):
        from .ui.gallery.gallery import demo_page
        from .ui.gallery.demo_runner import LiveLesson, run_lesson
        if live:
            demo_page(doc, LiveLesson(lesson, tf)).servable()
        else:
            events, output = run_lesson(lesson, tf)
            demo_page(doc, events, output=output, code=lesson).servable()


def print_explanations(explained) -> None:
    """`explained`: `(tape, target, sources[, options])` tuples, as each `lesson` returns."""
    print("--- tapeviz explains ---")
    for i, (tape, *args) in enumerate(explained, 1):
        options = args.pop() if len(args) == 3 else {}
        print(f"explain #{i}")
        for e in tape.explain(*args, **options):
            print(f"  {e.source_name}: {e.verdict} [{e.cause}] {e.message}")
            if e.fix:
                print(f"      fix: {e.fix}")
            if e.lineno:
                print(f"      at {e.filename}:{e.lineno}")

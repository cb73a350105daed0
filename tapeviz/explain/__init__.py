"""Explanations: why each gradient is what it is (`None`, zero, NaN/Inf or a value), with the
line of the user's code to change. They read what the engine leaves behind (the tape's
entries, the lineage of every op call, the tape's side notes) and never change it.

- explanation: `Explanation`, `explain` (`tape.explain`), `explain_flat` (for gradient events
  and warnings), `warn_if_broken` (`tv.config.explain_none`)
- context: what one gradient call's explanations share (lineage, entries, `TapeState`)
- none, zero, nonfinite: the cause finders for a `None`, a zero and a NaN/Inf gradient
- messages: the cause vocabulary, one sentence and one fix per cause (`CAUSES`)
"""
from .context import TapeState
from .explanation import (CAUSES, VERDICTS, Explanation, GradientWarning, explain,
                          explain_flat, warn_if_broken)

__all__ = ["CAUSES", "VERDICTS", "Explanation", "GradientWarning", "TapeState", "explain",
           "explain_flat", "warn_if_broken"]

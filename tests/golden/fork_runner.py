"""Run golden programs under tapeviz, each in a process forked from this one, which imported
tapeviz and did nothing else: a program meets tapeviz as a new interpreter would, without
paying for the import again (most of the half second a program took in its own
interpreter).

    python tests/golden/fork_runner.py         # reads "PROGRAM<TAB>OUT.json" lines on stdin
    python tests/golden/fork_runner.py --wild  # the same for programs of tests/wild/

For each line it forks; the child runs the program as ``golden_format.py run tapeviz PROGRAM
OUT.json`` does (its prints go to ``OUT.json.out``, its errors to ``OUT.json.err``) and
exits the usual way (atexit handlers run); with ``--wild`` the child runs it as
``tests/wild/wild_runner.py tapeviz PROGRAM OUT.json`` does (with that command's
``sys.argv``). This process answers the child's exit code on
stdout, one line per program. A child that runs longer than ``LIMIT`` seconds is ended by an
alarm (exit code -14). POSIX only: tests/test_golden.py starts a new interpreter per program
where there is no ``os.fork``, tests/test_wild.py likewise.
"""
from __future__ import annotations

import os
import signal
import sys

import golden_format
import tapeviz  # noqa: F401  (imported once: every child starts from this state)

LIMIT = 600
WILD = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "wild")


def _child(program: str, out: str, wild: bool) -> None:
    for fd, suffix in ((1, ".out"), (2, ".err")):
        sys.stdout.flush()
        sys.stderr.flush()
        target = os.open(out + suffix, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        os.dup2(target, fd)
        os.close(target)
    signal.alarm(LIMIT)
    if wild:
        sys.path.insert(0, WILD)
        import wild_runner
        sys.argv = [os.path.join(WILD, "wild_runner.py"), "tapeviz", program, out]
        sys.exit(wild_runner.main(sys.argv[1:]))
    sys.exit(golden_format._main(["run", "tapeviz", program, out]))


def main(argv) -> int:
    wild = argv == ["--wild"]
    for line in sys.stdin:
        program, out = line.rstrip("\n").split("\t")
        pid = os.fork()
        if pid == 0:
            _child(program, out, wild)  # (never returns: SystemExit ends the child)
        _, status = os.waitpid(pid, 0)
        print(os.waitstatus_to_exitcode(status), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

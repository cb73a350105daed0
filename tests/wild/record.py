"""Record TensorFlow's answers for the wild corpus (needs TensorFlow, never in CI).

Run with the Python of a virtual environment with tensorflow-cpu and tf-keras::

    python tests/wild/record.py                  # every program
    python tests/wild/record.py fgsm maml_sine   # some programs
    python tests/wild/record.py --folder tests/wild/trial4 [names]   # another folder

Each program in programs/ runs in a fresh process under real TensorFlow (Keras 2 from
tf-keras, TF_USE_LEGACY_KERAS=1, one thread, oneDNN off) and what its main() returns
goes to answers/<program>.json with the TensorFlow version and the program's sha256.
With ``--folder DIR`` the programs are the files DIR/*.py that start with ``# After:``
(their source) and their answers go to DIR/answers/ (a trial kept apart from the corpus).
"""
from __future__ import annotations

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "golden"))

import tf_recorder  # noqa: E402


def runner_command(path, out_path):
    return [sys.executable, os.path.join(HERE, "wild_runner.py"), "tensorflow", path, out_path]


def main(argv):
    programs, answers, jobs = os.path.join(HERE, "programs"), os.path.join(HERE, "answers"), 2
    if argv[:1] == ["--folder"]:
        if len(argv) < 2:
            sys.exit("--folder needs a folder of programs")
        programs = os.path.abspath(argv[1])
        answers, argv, jobs = os.path.join(programs, "answers"), argv[2:], 1
        # the folder's programs are the files naming a source; a helper script beside them is not
        argv = argv or [name for name in sorted(os.listdir(programs)) if name.endswith(".py")
                        and open(os.path.join(programs, name)).read(9) == "# After: "]
    # two at a time for the corpus: the wild programs train models and each wants a core
    return tf_recorder.record_programs(programs, answers, argv, runner_command,
                                       "tests/wild/record.py", jobs=jobs)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

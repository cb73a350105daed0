"""`python tests/misuse_cases` (with tensorflow-cpu): every case where TensorFlow disagrees."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from misuse_cases.oracle import main  # noqa: E402

main()

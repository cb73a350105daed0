"""The documentation speaks to users and maintainers: it holds no work diary, no path of one
particular machine, no ticket numbers, and every link in it leads somewhere."""
import pathlib
import re

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
DOCS = sorted([ROOT / "README.md", ROOT / "CONTRIBUTING.md", ROOT / "CHANGELOG.md",
               ROOT / "pyproject.toml", ROOT / "tests" / "golden" / "README.md",
               *(ROOT / "docs").glob("*.md")])

#: What a diary or one machine's notes look like, and why each is refused.
FORBIDDEN = {
    r"(?<![\w.])/(?:tmp|work|opt|root|home)/": "a path of one particular machine",
    r"\.\./shared|\bshared/[A-Z]": "a file outside the repository",
    r"\bsession\s+\d+|\b(?:this|last|that|previous|morning|afternoon)(?:'s)? session\b"
    r"|\b(?:the|an?|one|two|three|six|\d+) sessions? before\b": "a work diary (working sessions)",
    r"\bissue\s+#?\d+|\bissues\s+\d": "a ticket number",
    r"\bVM\b|\bthis day's\b": "notes about one machine or day",
}


def _rel(path):
    return path.relative_to(ROOT).as_posix()


@pytest.mark.parametrize("path", DOCS, ids=_rel)
@pytest.mark.parametrize("pattern", FORBIDDEN, ids=list(FORBIDDEN.values()))
def test_documents_hold_no_diary_and_no_machine_paths(path, pattern):
    hits = [f"{_rel(path)}:{n}: {line.strip()}"
            for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
            if re.search(pattern, line, re.IGNORECASE if "VM" not in pattern else 0)]
    assert not hits, f"{FORBIDDEN[pattern]}:\n" + "\n".join(hits)


@pytest.mark.parametrize("path", [p for p in DOCS if p.suffix == ".md"], ids=_rel)
def test_relative_links_lead_to_files_in_the_repository(path):
    text = path.read_text(encoding="utf-8")
    broken = []
    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        if re.match(r"[a-z]+:", target) or target.startswith("#"):
            continue            # a web address or an anchor
        if not (path.parent / target.split("#")[0]).exists():
            broken.append(target)
    assert not broken, f"{_rel(path)} links to missing files: {broken}"


def test_readme_is_short_and_starts_with_the_two_commands():
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 300, f"README.md has {len(lines)} lines; move details to docs/"
    first_block = lines[lines.index("```") + 1:]
    first_block = first_block[:first_block.index("```")]
    assert [line.split("#")[0].strip() for line in first_block] == \
        ["./run.sh gallery", "./run.sh test"]


# --- the maintainer guides name only what exists -------------------------------------------------
#: The two documents a newcomer reads to find where to add an op, a cause and a view: every file,
#: folder and dotted name of tapeviz they quote (in backticks) must exist.
GUIDES = [ROOT / "docs" / "architecture.md", ROOT / "CONTRIBUTING.md"]
#: where a quoted path may start: the repository, the package, the engine (`ops/`)
BASES = [ROOT, ROOT / "tapeviz", ROOT / "tapeviz" / "engine"]
FILE = re.compile(r"^[\w./-]*[\w-]\.(?:py|md|sh|toml|json)$|^[\w.-]+(?:/[\w.-]+)*/$|^\w+(?:/\w+)+$")
#: the first word of a dotted name that is tapeviz's (others, `pn.`, `param.`, `self.`, are not)
TAPEVIZ_ROOTS = {"tapeviz", "tv", "tf", "engine", "events", "threadstate", "emit", "call_site",
                 "op", "backprop", "explain", "messages", "recording", "ui"}


def _quoted(path):
    """(line number, row folder, quoted text) for every backticked span of a guide; the row
    folder is the folder of the first path a table row quotes (its bare file names live there)."""
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        folder = None
        for text in re.findall(r"`([^`\n]+)`", line):
            if line.startswith("|") and folder is None and "/" in text and FILE.match(text):
                folder = text if text.endswith("/") else text.rsplit("/", 1)[0] + "/"
            yield n, (folder if line.startswith("|") else None), text


def _path_exists(text, folder) -> bool:
    if text.startswith("../") or "*" in text:        # a folder outside the checkout, a glob
        return True
    if "/" not in text:                              # a bare file name
        if folder is not None:
            return any((base / folder / text).exists() for base in BASES)
        return any(p for p in ROOT.glob(f"**/{text}") if ".venv" not in p.parts)
    return any((base / text).exists() for base in BASES)


def _dotted_exists(text) -> bool:
    import importlib
    parts = text.split(".")
    first = {"tv": "tapeviz", "tf": "tapeviz"}.get(parts[0], parts[0])
    for prefix in ("", "tapeviz.", "tapeviz.engine."):
        for cut in range(len(parts), 0, -1):
            name = prefix + ".".join([first, *parts[1:cut]])
            try:
                obj = importlib.import_module(name)
            except ImportError:
                continue
            try:
                for attr in parts[cut:]:
                    obj = getattr(obj, attr)
            except AttributeError:
                break
            return True
    return False


@pytest.mark.parametrize("path", GUIDES, ids=_rel)
def test_every_path_and_dotted_name_a_guide_quotes_exists(path):
    missing = []
    for n, folder, text in _quoted(path):
        for word in re.findall(r"[\w./*-]+", text):
            if FILE.match(word) and not re.match(r"^\w+\.\w+\(", text):
                if not _path_exists(word, folder):
                    missing.append(f"{_rel(path)}:{n}: file {word!r} (in `{text}`)")
            elif re.fullmatch(r"\w+(?:\.\w+)+", word) and word.split(".")[0] in TAPEVIZ_ROOTS \
                    and not FILE.match(word) and not _dotted_exists(word):
                missing.append(f"{_rel(path)}:{n}: name {word!r} (in `{text}`)")
    assert not missing, "quoted but missing (renamed or removed?):\n" + "\n".join(missing)


#: answers recorded from TensorFlow (an error's message can quote a traceback)
RECORDED = sorted((ROOT / "tests").rglob("answers/*.json"))


def test_recorded_answers_name_no_path_of_the_recording_machine():
    pattern = re.compile(r"(?<![\w.])/(?:tmp|work|opt|root|home)/")
    hits = [_rel(path) for path in RECORDED if pattern.search(path.read_text(encoding="utf-8"))]
    assert RECORDED and not hits, f"answers quoting a path of one machine: {hits}"

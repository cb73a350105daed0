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

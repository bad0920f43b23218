"""The package layout a newcomer reads: no package of rulebase/ over 15 modules, no module over
500 lines (import cycles are lint-imports' contract, run beside the tests)."""

from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "rulebase"
MAX_MODULES, MAX_LINES = 15, 500


def test_no_package_holds_more_than_fifteen_modules():
    crowded = {}
    for folder in [PACKAGE, *(p for p in PACKAGE.rglob("*") if p.is_dir() and p.name != "__pycache__")]:
        count = sum(1 for p in folder.glob("*.py"))  # its __init__ counted
        if count > MAX_MODULES:
            crowded[str(folder.relative_to(PACKAGE.parent))] = count
    assert crowded == {}


def test_no_module_is_longer_than_five_hundred_lines():
    long = {str(p.relative_to(PACKAGE.parent)): n for p in PACKAGE.rglob("*.py")
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_LINES}
    assert long == {}

"""The encoder's text scan (Sources/CTextScan) against a byte-at-a-time reference of its rules
(Tests/system/text_scan/check.c): built as the machine's compiler builds it (SSE2 on x86-64) and
with SSE2 turned off, so the fallback other processors get is checked here too."""

import platform
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SOURCES = ROOT / "Sources" / "CTextScan"
CHECK = Path(__file__).resolve().parent / "text_scan" / "check.c"

WAYS = [pytest.param([], "sse2" if platform.machine() in ("x86_64", "AMD64") else "a byte at a time", id="native")]
if platform.machine() in ("x86_64", "AMD64"):
    WAYS.append(pytest.param(["-mno-sse2"], "a byte at a time", id="no-sse2"))


@pytest.mark.parametrize("flags,way", WAYS)
def test_text_scan_agrees_with_the_reference(tmp_path, flags, way):
    cc = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if cc is None:
        pytest.skip("no C compiler")
    binary = tmp_path / "check"
    subprocess.run([cc, "-O2", "-std=c99", "-Wall", "-Wextra", "-Werror", *flags, "-I", str(SOURCES / "include"),
                    str(CHECK), str(SOURCES / "text_scan.c"), "-o", str(binary)], check=True)
    run = subprocess.run([str(binary)], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.stdout.strip() == f"16000 texts: ok ({way})"

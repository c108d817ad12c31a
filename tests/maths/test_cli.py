"""Both commands end with one line and a non-zero status, never a traceback (``attnlab.cli``), each run in a fresh
interpreter as a reader runs it."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from sites import ROOT, run_command

from attnlab.__main__ import main as companion_main
from attnlab.bench import main as bench_main
from attnlab.cli import run

QUICK_BENCH = ("-m", "attnlab.bench", "--max-t", "256", "--repeats", "1")


BAD_FLAGS = [
    (bench_main, ["--seed", "-1"], "argument --seed: must be at least 0, got -1"),
    (bench_main, ["--seed", "x"], "argument --seed: must be an integer, got 'x'"),
    (bench_main, ["--repeats", "0"], "argument --repeats: must be at least 1, got 0"),
    (bench_main, ["--block", "0"], "argument --block: must be at least 1, got 0"),
    (bench_main, ["--block", "2.5"], "argument --block: must be an integer, got '2.5'"),
    (bench_main, ["--max-t", "255"], "argument --max-t: must be at least 256, got 255"),  # 256 itself runs below
    (companion_main, ["--colour"], "unrecognized arguments: --colour"),
    (companion_main, ["--js"], "unrecognized arguments: --js"),  # no abbreviations
]


def test_a_bad_flag_ends_the_command_with_one_line_naming_it_and_status_2(capsys: pytest.CaptureFixture[str]) -> None:
    for main, argv, message in BAD_FLAGS:
        with pytest.raises(SystemExit) as ended:
            main(argv)
        prog = "python -m attnlab" + (".bench" if main is bench_main else "")
        assert (ended.value.code, capsys.readouterr()) == (2, ("", f"{prog}: error: {message}\n"))


COMMANDS = {"companion": ("-m", "attnlab"), "bench": QUICK_BENCH}  # --json writes through the same cli.run


@pytest.mark.parametrize("args", COMMANDS.values(), ids=COMMANDS.keys())
def test_a_pipe_closed_early_ends_the_command_quietly_and_a_full_disk_with_one_line_both_with_status_1(
        args: tuple[str, ...]) -> None:
    reading, writing = os.pipe()  # as ``| head`` leaves it: nobody reads any more
    os.close(reading)
    try:
        done = run_command(*args, stdout=writing)
    finally:
        os.close(writing)
    assert (done.returncode, done.stderr) == (1, "")
    with open("/dev/full", "w", encoding="utf-8") as full:
        done = run_command(*args, stdout=full.fileno())
    prog = "python " + " ".join(args[:2])
    assert (done.returncode, done.stderr) == (1, f"{prog}: cannot write to standard output: No space left on device\n")


def test_run_returns_the_status_of_the_work_and_on_ctrl_c_130_with_one_line(
        capsys: pytest.CaptureFixture[str]) -> None:
    def interrupted() -> int:
        raise KeyboardInterrupt

    assert run("attnlab-test", lambda: 3) == 3
    assert (run("attnlab-test", interrupted), capsys.readouterr().err) == (130, "attnlab-test: interrupted\n")


def test_a_c_locale_still_prints_the_companion_in_utf_8() -> None:
    # Python reads LANG=C as UTF-8 (PEP 538 and 540), so the root sign of WE-002 goes out whole
    environment = {key: value for key, value in os.environ.items()
                   if not key.startswith(("LC_", "PYTHONIO")) and key != "PYTHONUTF8"}
    done = subprocess.run([sys.executable, "-m", "attnlab"], cwd=ROOT, capture_output=True, timeout=120,
                          check=False, env={**environment, "LANG": "C"})
    assert (done.returncode, done.stderr) == (0, b"") and "[√2, 0]".encode() in done.stdout

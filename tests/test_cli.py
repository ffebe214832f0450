"""The ``rag`` console script, run as a user would: in a subprocess, configured by RAG_DATA_DIR."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

try:
    from tests.servers.procs import HOST, free_port
except ImportError:  # pragma: no cover - depends on how pytest was invoked
    from servers.procs import HOST, free_port  # type: ignore[no-redef]

WHO_WHEN = "How many failed trajectories does Who&When Pro contain?"
COMMANDS = ("ingest", "ask", "chat", "papers", "ui")


def test_top_level_help_lists_every_command(rag_cli) -> None:
    run = rag_cli("--help")
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith("usage: rag")
    for command in COMMANDS:
        assert re.search(rf"^\s+{command}\s+\S", run.stdout, re.M), f"{command} not explained:\n{run.stdout}"
    assert "RAG_LLM_BASE_URL" in run.stdout  # says how answers are produced
    assert "--data-dir" in run.stdout


@pytest.mark.parametrize(
    ("command", "must_mention"),
    [
        ("ingest", ["PATH", "--add", ".jsonl"]),
        ("ask", ["question", "--json", "--papers", "--retriever"]),
        ("chat", ["--papers", "--extractive"]),
        ("papers", ["--json"]),
        ("ui", ["--port", "--host", "127.0.0.1"]),
    ],
)
def test_subcommand_help_explains_it(rag_cli, command, must_mention) -> None:
    run = rag_cli(command, "--help")
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith(f"usage: rag {command}")
    description = run.stdout.split("\n\n")[1]
    assert len(description.split()) >= 5, f"no description for {command}:\n{run.stdout}"
    for word in must_mention:
        assert word in run.stdout, f"{word!r} missing from `rag {command} --help`"


def test_papers_lists_the_19_seed_papers(rag_cli, tmp_path) -> None:
    run = rag_cli("papers", data_dir=tmp_path / "fresh")  # nothing ingested: the shipped seeds
    assert run.returncode == 0, run.stderr
    ids = re.findall(r"^(p\d\d)\s", run.stdout, re.M)
    assert ids == [f"p{i:02d}" for i in range(1, 20)]
    assert "19 papers" in run.stdout
    assert re.search(r"^p05\s+Who&When Pro\b", run.stdout, re.M)

    as_json = rag_cli("papers", "--json", data_dir=tmp_path / "fresh")
    assert as_json.returncode == 0, as_json.stderr
    records = json.loads(as_json.stdout)
    assert [r["id"] for r in records] == ids
    assert all(r["abstract"] and r["label"] for r in records)


def test_ask_json_answers_with_the_count_and_cites_p05(rag_cli, cli_data_dir) -> None:
    run = rag_cli("ask", "--json", WHO_WHEN, data_dir=cli_data_dir[0])
    assert run.returncode == 0, run.stderr
    result = json.loads(run.stdout)
    assert result["question"] == WHO_WHEN
    assert result["mode"] == "extractive" and not result["refused"]
    assert "12,326" in result["answer"]
    by_number = {s["number"]: s for s in result["sources"]}
    assert [s["number"] for s in result["sources"]] == list(range(1, len(result["sources"]) + 1))
    assert result["cited"] and all(n in by_number for n in result["cited"])
    assert "p05" in [by_number[n]["paper_id"] for n in result["cited"]]
    markers = {int(n) for n in re.findall(r"\[(\d+)\]", result["answer"])}
    assert markers == set(result["cited"])


def test_the_same_comparison_reads_the_same_in_every_process(rag_cli, cli_data_dir) -> None:
    """The "distinctive terms" line ranks many equally rare words: in set order it changed with the
    interpreter's hash seed, and markdown emphasis ("**R**ole **I**nference") gave fragments like "nference"."""
    runs = [rag_cli("ask", "Compare Who&When Pro and RISE.", data_dir=cli_data_dir[0],
                    env={"PYTHONHASHSEED": seed}) for seed in ("1", "2")]
    assert all(run.returncode == 0 for run in runs), [run.stderr for run in runs]
    first, second = (run.stdout for run in runs)
    assert "Only RISE:" in first and first == second
    assert not re.search(r"\b(?:ole|nference|elective|volution)\b", first), first


def test_ask_with_an_empty_question_is_a_clean_usage_error(rag_cli, cli_data_dir) -> None:
    run = rag_cli("ask", "", data_dir=cli_data_dir[0])
    assert run.returncode == 2
    assert "Traceback" not in run.stderr, run.stderr
    assert "error:" in run.stderr and "question" in run.stderr.lower()
    assert run.stdout.strip() == ""


def test_chat_answers_each_line_until_eof(rag_cli, cli_data_dir) -> None:
    questions = ["What does the acronym CoCHI stand for?", WHO_WHEN]
    run = rag_cli("-q", "chat", data_dir=cli_data_dir[0], input="\n".join(questions) + "\n")
    assert run.returncode == 0, run.stderr
    assert "Traceback" not in run.stderr
    assert "19 papers indexed" in run.stdout
    assert run.stdout.count("you> ") == 3  # two questions, then the prompt that meets EOF
    assert run.stdout.count("[extractive answer") == 2
    assert run.stdout.count("Sources:") == 2
    first, second = run.stdout.split("you> ")[1:3]
    assert "CoCHI" in first and "(p04)" in first
    assert "12,326" in second and "(p05)" in second


def test_global_options_work_after_the_command(rag_cli, cli_data_dir, tmp_path) -> None:
    run = rag_cli("ask", "--data-dir", str(cli_data_dir[0]), "--json", WHO_WHEN, data_dir=tmp_path / "unused")
    assert run.returncode == 0, run.stderr
    assert "12,326" in json.loads(run.stdout)["answer"]
    assert not (tmp_path / "unused").exists(), "the --data-dir after the command was used, not RAG_DATA_DIR"


def test_papers_query_filters_by_every_word(rag_cli, tmp_path) -> None:
    run = rag_cli("papers", "-q", "diffusion models", "--plain", data_dir=tmp_path / "fresh")
    assert run.returncode == 0, run.stderr
    ids = re.findall(r"^(p\d\d)\s", run.stdout, re.M)
    assert ids and "p15" in ids and "p05" not in ids
    assert f"{len(ids)} papers of 19" in run.stdout or f"{len(ids)} paper of 19" in run.stdout


def test_chat_commands_help_new_and_quit(rag_cli, cli_data_dir) -> None:
    lines = ["/help", WHO_WHEN, "/new", "And which modalities does it cover?", "quit", "never asked"]
    run = rag_cli("-q", "chat", "--plain", data_dir=cli_data_dir[0], input="\n".join(lines) + "\n")
    assert run.returncode == 0, run.stderr
    assert "/new" in run.stdout and "start a new conversation" in run.stdout, "/help explains the commands"
    assert "New conversation" in run.stdout
    assert run.stdout.count("[extractive answer") == 2, "commands are not asked as questions"
    assert run.stdout.count("you> ") == 5, "quit ends the chat before the last line"


def test_a_sigterm_to_rag_ui_stops_its_streamlit_server_too(cli_data_dir, tmp_path) -> None:
    """``rag ui`` runs Streamlit as a child; a SIGTERM to ``rag ui`` alone (``kill``, a process manager) used to
    end only the parent and leave Streamlit serving on the port, so the next ``rag ui`` could not bind it."""
    data_dir, _ = cli_data_dir
    port = free_port()
    url = f"http://{HOST}:{port}/_stcore/health"
    log = tmp_path / "ui.log"
    with open(log, "wb") as out:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("RAG_", "OPENAI_"))}
        proc = subprocess.Popen([str(Path(sys.executable).with_name("rag")), "-q", "ui", "--host", HOST, "--port",
                                 str(port)], cwd=tmp_path, env={**env, "RAG_DATA_DIR": str(data_dir)}, stdout=out,
                                stderr=subprocess.STDOUT, start_new_session=True)  # own group: cleaned up below

    def serving() -> bool:
        try:
            with urllib.request.urlopen(url, timeout=2) as reply:
                return reply.status == 200
        except OSError:
            return False

    try:
        deadline = time.monotonic() + 240
        while not serving():
            assert proc.poll() is None and time.monotonic() < deadline, log.read_text(errors="replace")[-2000:]
            time.sleep(0.5)
        proc.send_signal(signal.SIGTERM)  # the parent only, not its group
        proc.wait(timeout=30)
        deadline = time.monotonic() + 30
        while serving() and time.monotonic() < deadline:
            time.sleep(0.5)
        assert not serving(), "Streamlit still serves after `rag ui` was stopped"
    finally:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass

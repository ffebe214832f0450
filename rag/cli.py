"""``rag``: index abstracts and ask them questions from the terminal, or start the chat UI.

A thin shell over :class:`rag.assistant.Assistant`; every setting can also come
from ``RAG_*`` environment variables or ``rag.toml`` (see the README). Global
options (``--data-dir``, ``--corpus``, …) are accepted before or after the
command. Heavy modules (torch, sentence-transformers, chromadb) are imported by
the commands that need them, so ``rag --help`` and ``rag papers`` start fast.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
from collections.abc import Callable, Collection, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from .config import ConfigError, unknown_settings
from .safety import strip_control

if TYPE_CHECKING:
    from .assistant import Assistant
    from .config import Settings
    from .corpus import Paper
    from .filters import Filters
    from .terminal import Printer

EPILOG = """\
examples:
  rag ask "How many failed trajectories does Who&When Pro contain?"
  rag ask --json --papers p05,p07 "How do these two papers differ?"
  rag ask --data-dir other_index "Which papers study diffusion models?"
  rag papers -q diffusion                    # papers whose id, label or abstract mention it
  rag ingest my_abstracts.jsonl.gz          # index your own corpus instead of the seeds
  rag chat                                   # multi-turn chat in the terminal (/help inside)
  rag ui                                     # the Streamlit chat UI on http://127.0.0.1:8501

Answers are extractive (quoted, cited sentences) unless RAG_LLM_BASE_URL points at an
OpenAI-compatible endpoint (OpenAI, Ollama, vLLM, llama.cpp server). Nothing is sent
anywhere you did not configure.
"""
CHAT_HELP = """\
Type a question and press Enter. Follow-up questions see the conversation.
  /new          start a new conversation (forget the previous questions)
  /help         this help
  /quit, quit, exit, Ctrl-D   leave
Ctrl-C clears the line you are typing, or stops an answer while it prints."""
QUIT_WORDS = frozenset({"/quit", "/exit", "quit", "exit"})


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="rag", description="Ask a corpus of paper abstracts questions; every answer cites its papers.",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    _add_global_options(parser, suppress=False)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    ingest = _command(sub, "ingest", help="index a corpus (embeds only new or changed papers)",
                      description="Index the given files/folders (seed .txt, .jsonl, .jsonl.gz, .csv, or a "
                      "folder of .txt/.md). Without paths, re-syncs the corpus the index was built from "
                      "(or the shipped seeds). The given paths become the index's corpus: papers not in them "
                      "are removed from the index; use --add to keep the current corpus too.")
    ingest.add_argument("paths", nargs="*", type=Path, metavar="PATH")
    ingest.add_argument("--add", action="store_true", help="add PATHs to the current corpus instead of replacing it")

    ask = _command(sub, "ask", help="answer one question with numbered, cited sources",
                   description="Answer one question from the indexed abstracts and list the sources.")
    ask.add_argument("question")
    _add_answer_options(ask)
    _add_output_options(ask, "print the answer, sources and timings as JSON")
    add_filter_options(ask)

    chat = _command(sub, "chat", help="multi-turn chat in the terminal (/help inside, Ctrl-D to leave)",
                    description="Chat in the terminal; follow-up questions see the conversation. Inside: /help, "
                    "/new (new conversation), /quit; Ctrl-C clears the line.")
    _add_answer_options(chat)
    chat.add_argument("--plain", action="store_true", help="plain text: no styling, Markdown printed as written")
    add_filter_options(chat)

    papers = _command(sub, "papers", help="list the indexed papers with their ids and labels", short_quiet=False,
                      description="List every paper of the corpus: id, label and the start of its abstract.")
    papers.add_argument("-q", "--query", help="only papers whose id, label, title or abstract contain every word")
    _add_output_options(papers, "print full records as JSON")
    add_filter_options(papers)

    ui = _command(sub, "ui", help="start the Streamlit chat UI (builds the index first)",
                  description="Build or update the index, then serve the chat UI on 127.0.0.1.")
    ui.add_argument("--port", type=int, default=8501, help="port (default 8501)")
    ui.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    _add_eval_parser(sub)
    return parser


def _command(sub: argparse._SubParsersAction, name: str, help: str, description: str,
             short_quiet: bool = True) -> argparse.ArgumentParser:
    """A subcommand that also accepts the global options (after its name)."""
    command: argparse.ArgumentParser = sub.add_parser(name, help=help, description=description)
    _add_global_options(command, suppress=True, short_quiet=short_quiet)
    return command


def _add_global_options(parser: argparse.ArgumentParser, suppress: bool, short_quiet: bool = True) -> None:
    """Options every command takes. On subcommands their default is SUPPRESS, so a value given
    before the command is not overwritten by the subcommand's default."""
    group = parser.add_argument_group("global options (before or after the command)")

    def default(value: object) -> object:
        return argparse.SUPPRESS if suppress else value

    group.add_argument("--data-dir", type=Path, default=default(None),
                       help="index folder (default .rag, env RAG_DATA_DIR)")
    group.add_argument("--corpus", default=default(None),
                       help="files/folders to index, ':'-separated "
                       "(env RAG_CORPUS; default: last ingested, else seeds)")
    group.add_argument("--chroma-host", default=default(None),
                       help="use a Chroma server (`chroma run`) at this host (env RAG_CHROMA_HOST)")
    group.add_argument("--chroma-port", type=int, default=default(None),
                       help="port of the Chroma server (default 8000)")
    quiet = ("-q", "--quiet") if short_quiet else ("--quiet",)
    group.add_argument(*quiet, action="store_true", default=default(False), help="no progress bars")


def _add_answer_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("-k", "--top-k", type=int, help="number of source papers (default 5, env RAG_TOP_K)")
    p.add_argument("--papers", help="only consider these paper ids, comma-separated (e.g. p05,p07)")
    p.add_argument("--retriever", choices=["hybrid", "dense", "bm25"], help="retrieval method (default hybrid)")
    p.add_argument("--extractive", action="store_true", help="quote the abstracts even if an LLM is configured")


def _add_output_options(p: argparse.ArgumentParser, json_help: str) -> None:
    output = p.add_mutually_exclusive_group()
    output.add_argument("--json", action="store_true", help=json_help)
    output.add_argument("--plain", action="store_true", help="plain text: no styling, Markdown printed as written")


def _add_eval_parser(sub: argparse._SubParsersAction) -> None:
    """``rag eval``: the options live here; the metrics in :mod:`rag.evaluation`."""
    p = _command(sub, "eval", help="score the assistant on a question file (retrieval, citations, refusals, latency)",
                 description="Run every question of a JSON-lines file through the assistant and print recall@k per "
                 "retriever, cited-paper precision/recall/F1, must-keyword hits, refusal accuracy, citation validity "
                 "and support, and latency, per question type and overall. Progress goes to stderr.")
    p.add_argument("questions", type=Path, metavar="QUESTIONS.jsonl")
    p.add_argument("-k", "--k", dest="top_k", type=_positive, metavar="K",
                   help="sources per answer and recall cut-off (default: top_k setting, 5)")
    p.add_argument("--types", type=_csv(), help="only these question types, comma-separated (e.g. factual,paraphrase)")
    p.add_argument("--per-type", type=_positive, metavar="N", help="only the first N questions of each type")
    p.add_argument("--limit", type=_positive, metavar="N", help="only the first N questions (after --types/--per-type)")
    from .evaluation import MODES  # stdlib-only at import time

    p.add_argument("--modes", type=_csv(MODES), default=list(MODES),
                   help="retrievers to score side by side (default dense,bm25,hybrid)")
    p.add_argument("--extractive", action="store_true", help="force extractive answers even if an LLM is configured")
    p.add_argument("--json", action="store_true", help="print the full report, with per-question rows, as JSON")


def _positive(value: str) -> int:
    if not value.isdigit() or int(value) < 1:
        raise argparse.ArgumentTypeError("expected a positive integer")
    return int(value)


def _csv(choices: Collection[str] | None = None) -> Callable[[str], list[str]]:
    """An argparse type for comma-separated lists, optionally restricted to ``choices``."""
    def parse(value: str) -> list[str]:
        items = [v.strip() for v in value.split(",") if v.strip()]
        if not items or (choices is not None and not set(items) <= set(choices)):
            allowed = f" of {','.join(choices)}" if choices is not None else ""
            raise argparse.ArgumentTypeError(f"expected a comma-separated list{allowed}")
        return items
    return parse


def add_filter_options(p: argparse.ArgumentParser) -> None:
    """--venue / --year, shared by ask, chat and papers."""
    p.add_argument("--venue", action="append", metavar="NAME",
                   help="only papers of this venue (repeatable; names as in the corpus, any case)")
    p.add_argument("--year", metavar="YEARS", help="only papers of these years: 2022, 2019-2021, 2019- or -2021")


def filters_from(args: argparse.Namespace, papers: Sequence[Paper]) -> Filters | None:
    """The --venue/--year flags as Filters (venue names checked against the corpus); None without flags."""
    if not args.venue and not args.year:
        return None
    from .filters import Filters, canonical_venues, parse_year_range, venue_counts

    venues = canonical_venues(args.venue or [], venue_counts(papers))
    low, high = parse_year_range(args.year) if args.year else (None, None)
    return Filters(venues, low, high)


def settings_from(args: argparse.Namespace) -> Settings:
    from .config import Settings

    overrides = {
        "data_dir": getattr(args, "data_dir", None), "corpus": getattr(args, "corpus", None),
        "chroma_host": getattr(args, "chroma_host", None), "chroma_port": getattr(args, "chroma_port", None),
        "retriever": getattr(args, "retriever", None), "top_k": getattr(args, "top_k", None),
    }
    return Settings(**{k: v for k, v in overrides.items() if v is not None})


# Errors whose messages are written for users: (module, class). Printed as one line, exit code 2.
USER_ERRORS = (("rag.assistant", "QuestionError"), ("rag.corpus", "CorpusError"),
               ("rag.embedding", "EmbeddingError"), ("rag.store", "StoreError"), ("rag.filters", "FilterError"))


def _user_errors() -> tuple[type[Exception], ...]:
    """The USER_ERRORS classes of modules already imported.

    Evaluated when an exception is matched: a module the command never imported
    cannot have raised its error, and naming it must not load torch or chromadb.
    """
    return tuple(getattr(sys.modules[module], name) for module, name in USER_ERRORS if module in sys.modules)


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        _warn(unknown_settings())
        return COMMANDS[args.command](args)
    except ConfigError as exc:  # the setup is at fault, not the command line
        _warn(str(exc).splitlines(), "error")
        return 1
    except _user_errors() as exc:
        _warn(str(exc).splitlines(), "error")
        return 1 if type(exc).__name__ == "StoreError" else 2  # a dead server is a setup fault too
        return 2
    except KeyboardInterrupt:
        print("\ninterrupted: papers indexed so far are kept; run the command again to continue.", file=sys.stderr)
        return 130


def _warn(lines: Sequence[str], kind: str = "warning") -> None:
    """One ``kind: ...`` line on stderr per message, terminal controls removed."""
    for line in lines:
        print(f"{kind}: {strip_control(line)}", file=sys.stderr)


def cmd_ingest(args: argparse.Namespace) -> int:
    from .assistant import Assistant
    from .indexing import remembered_corpus

    settings = settings_from(args)
    if args.paths:
        current = (remembered_corpus(settings.data_dir) or []) if args.add else []
        settings = settings.model_copy(update={"corpus": current + [p.resolve() for p in args.paths]})
    assistant = Assistant.open(settings, progress=not args.quiet, update=True)
    _warn(assistant.notices)
    print(assistant.last_ingest.summary() if assistant.last_ingest else "index up to date")
    print(f"store: {assistant.store.location}")
    return 0


def _open(args: argparse.Namespace) -> Assistant:
    from .assistant import Assistant

    assistant = Assistant.open(settings_from(args), progress=not args.quiet)
    _warn(assistant.notices)
    return assistant


def _paper_filter(args: argparse.Namespace) -> list[str] | None:
    return [p.strip() for p in args.papers.split(",") if p.strip()] if args.papers else None


def _printer(args: argparse.Namespace, settings: Settings) -> Printer:
    from .terminal import Printer

    return Printer(plain=getattr(args, "plain", False), lexical_weight=settings.lexical_weight)


def cmd_ask(args: argparse.Namespace) -> int:
    from .assistant import validate_question
    from .safety import strip_control

    settings = settings_from(args)
    validate_question(args.question, settings.max_question_chars)  # before the slow start-up
    assistant = _open(args)
    response = assistant.ask(args.question, paper_ids=_paper_filter(args), use_llm=not args.extractive,
                             filters=filters_from(args, assistant.papers))
    if args.json:
        print(strip_control(json.dumps(response.result().to_dict(), indent=2, ensure_ascii=False)))
        return 0
    _printer(args, settings).answer(response)
    return 0


def cmd_chat(args: argparse.Namespace) -> int:
    from .assistant import QuestionError
    from .store import StoreError
    from .types import Message

    assistant = _open(args)
    out = _printer(args, assistant.settings)
    filters = filters_from(args, assistant.papers)
    history: list[Message] = []
    out.line(f"{len(assistant.papers)} papers indexed. Ask a question (/help for commands, Ctrl-D to quit).")
    while True:
        question = _prompt()
        if question is None or question.lower() in QUIT_WORDS:
            return 0
        if not question:
            continue
        if question.startswith("/"):
            history = _chat_command(question, history, out)
            continue
        try:
            response = assistant.ask(question, history=history, paper_ids=_paper_filter(args),
                                      use_llm=not args.extractive, filters=filters)
            out.line()
            out.answer(response)
        except (QuestionError, StoreError) as exc:  # this question failed; the session goes on
            out.line(f"error: {strip_control(str(exc))}")
            continue
        except KeyboardInterrupt:
            out.line("\n(answer stopped)")
            continue
        history += [Message("user", question), Message("assistant", response.answer.text)]


def _prompt() -> str | None:
    """The next line typed; None at end of input (Ctrl-D). Ctrl-C abandons the line and asks again."""
    while True:
        try:
            return input("\nyou> ").strip()
        except EOFError:
            print()
            return None
        except KeyboardInterrupt:
            print("^C")


def _chat_command(command: str, history: list, out: Printer) -> list:
    """Run a ``/command``; returns the conversation history to continue with."""
    if command.lower() == "/new":
        out.line("New conversation: the next question is not a follow-up.")
        return []
    if command.lower() != "/help":
        out.line(f"unknown command {command.split()[0]!r}")
    out.line(CHAT_HELP)
    return history


def cmd_papers(args: argparse.Namespace) -> int:
    from .catalog import CORPUS_CHANGED, corpus_changed, stored_papers
    from .config import SEED_CORPUS
    from .corpus import load_corpus
    from .indexing import resolve_corpus
    from .paper_search import search_papers

    settings = settings_from(args)
    corpus = resolve_corpus(settings.corpus, settings.data_dir, SEED_CORPUS)
    every = stored_papers(settings.data_dir)  # what the index holds, even if its files moved
    if every is None:
        every = load_corpus(corpus)  # nothing indexed yet: show what would be
    elif corpus_changed(settings.data_dir, corpus):
        _warn([CORPUS_CHANGED])
    filters = filters_from(args, every)
    papers = [p for p in every if filters.matches(p)] if filters else every
    papers = search_papers(papers, args.query) if args.query else papers
    if not papers:
        print("no papers match")
        return 0
    if args.json:
        from .filters import paper_venue, paper_year

        records = [{"id": p.id, "label": p.label, "title": p.title, "url": p.url, "links": list(p.links),
                    "venue": paper_venue(p), "year": paper_year(p), "abstract": p.text} for p in papers]
        print(strip_control(json.dumps(records, indent=2, ensure_ascii=False)))
        return 0
    _printer(args, settings).papers(papers, len(every))
    return 0


def cmd_ui(args: argparse.Namespace) -> int:
    from importlib.resources import files

    assistant = _open(args)  # build/update the index here, with a progress bar in the terminal
    print(assistant.last_ingest.summary() if assistant.last_ingest else "index up to date")
    del assistant  # the UI process opens the store itself
    env = dict(os.environ)
    for name, value in (("RAG_DATA_DIR", args.data_dir), ("RAG_CORPUS", args.corpus),
                        ("RAG_CHROMA_HOST", args.chroma_host), ("RAG_CHROMA_PORT", args.chroma_port)):
        if value:
            env[name] = str(value)
    print(f"Chat UI: http://{args.host}:{args.port}  (Ctrl-C to stop)", flush=True)
    app = files("ui") / "app.py"  # shipped in the wheel next to `rag`
    command = [sys.executable, "-m", "streamlit", "run", str(app),
               "--server.address", args.host, "--server.port", str(args.port), "--server.headless", "true",
               "--browser.gatherUsageStats", "false", "--client.toolbarMode", "minimal",
               "--client.showErrorDetails", "none"]
    return _serve(command, env)


def _serve(command: list[str], env: dict[str, str]) -> int:
    """Run the UI server as a child and stop it with us. With a plain ``subprocess.call`` a SIGTERM to
    ``rag ui`` (``kill``, a process manager, a closed terminal's SIGHUP) ended only the parent and left Streamlit
    serving on the port, so the next ``rag ui`` could not bind it. Ctrl-C reaches both already (one process
    group); the child then exits by itself and is waited for."""
    child = subprocess.Popen(command, env=env)

    def stop(signum: int, frame: object) -> None:
        child.terminate()

    for name in ("SIGTERM", "SIGHUP"):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), stop)
    while True:
        try:
            return child.wait()
        except KeyboardInterrupt:
            continue  # (the child got the same Ctrl-C; its exit code is the answer)


def cmd_eval(args: argparse.Namespace) -> int:
    """Run ``rag eval``; returns the process exit code."""
    from .assistant import Assistant
    from .evaluation import QuestionFileError, format_report, load_questions, print_progress, run_eval, select_questions

    try:
        available = load_questions(args.questions)
    except QuestionFileError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    unknown = sorted(set(args.types or ()) - {q.type for q in available})
    if unknown or not available:
        print(f"error: {args.questions} has no questions of type {', '.join(unknown) or 'any'}", file=sys.stderr)
        return 2
    questions = select_questions(available, args.types, args.per_type, args.limit)
    settings = settings_from(args)
    assistant = Assistant.open(settings, progress=not args.quiet)
    report = run_eval(assistant, questions, settings.top_k, args.modes, use_llm=not args.extractive,
                      progress=None if args.quiet else print_progress)
    print(json.dumps(report.to_dict(), indent=2, ensure_ascii=False) if args.json else format_report(report))
    return 0


COMMANDS: dict[str, Callable[[argparse.Namespace], int]] = {
    "ingest": cmd_ingest, "ask": cmd_ask, "chat": cmd_chat, "papers": cmd_papers, "ui": cmd_ui, "eval": cmd_eval,
}

if __name__ == "__main__":
    sys.exit(main())

"""``rag``: index abstracts and ask them questions from the terminal, or start the chat UI.

A thin shell over :class:`rag.assistant.Assistant`; every setting can also come
from ``RAG_*`` environment variables or ``rag.toml`` (see the README).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

from .config import PROJECT_ROOT, Settings
from .corpus import Paper
from .evaluation import add_eval_parser, cmd_eval
from .filters import (
    FilterError,
    Filters,
    canonical_venues,
    paper_venue,
    paper_year,
    parse_year_range,
    venue_counts,
)

EPILOG = """\
examples:
  rag ask "How many failed trajectories does Who&When Pro contain?"
  rag ask --json --papers p05,p07 "How do these two papers differ?"
  rag ingest my_abstracts.jsonl.gz          # index your own corpus instead of the seeds
  rag chat                                   # multi-turn chat in the terminal
  rag ui                                     # the Streamlit chat UI on http://127.0.0.1:8501

Answers are extractive (quoted, cited sentences) unless RAG_LLM_BASE_URL points at an
OpenAI-compatible endpoint (OpenAI, Ollama, vLLM, llama.cpp server). Nothing is sent
anywhere you did not configure.
"""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="rag", description="Ask a corpus of paper abstracts questions; every answer cites its papers.",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--data-dir", type=Path, help="index folder (default .rag, env RAG_DATA_DIR)")
    parser.add_argument("--chroma-host", help="use a Chroma server (`chroma run`) at this host (env RAG_CHROMA_HOST)")
    parser.add_argument("--chroma-port", type=int, help="port of the Chroma server (default 8000)")
    parser.add_argument("-q", "--quiet", action="store_true", help="no progress bars")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    ingest = sub.add_parser("ingest", help="index a corpus (embeds only new or changed papers)",
                            description="Index the given files/folders (seed .txt, .jsonl, .jsonl.gz, .csv, or a "
                            "folder of .txt/.md). Without paths, re-syncs the corpus the index was built from "
                            "(or the shipped seeds). The given paths become the index's corpus: papers not in them "
                            "are removed from the index; use --add to keep the current corpus too.")
    ingest.add_argument("paths", nargs="*", type=Path, metavar="PATH")
    ingest.add_argument("--add", action="store_true", help="add PATHs to the current corpus instead of replacing it")

    ask = sub.add_parser("ask", help="answer one question with numbered, cited sources",
                         description="Answer one question from the indexed abstracts and list the sources.")
    ask.add_argument("question")
    _add_answer_options(ask)
    add_filter_options(ask)
    ask.add_argument("--json", action="store_true", help="print the answer, sources and timings as JSON")

    chat = sub.add_parser("chat", help="multi-turn chat in the terminal (Ctrl-D to leave)",
                          description="Chat in the terminal; follow-up questions see the conversation.")
    _add_answer_options(chat)
    add_filter_options(chat)

    papers = sub.add_parser("papers", help="list the indexed papers with their ids and labels",
                            description="List every paper of the corpus: id, label and the start of its abstract.")
    papers.add_argument("--json", action="store_true", help="print full records as JSON")
    add_filter_options(papers)

    ui = sub.add_parser("ui", help="start the Streamlit chat UI (builds the index first)",
                        description="Build or update the index, then serve the chat UI on 127.0.0.1.")
    ui.add_argument("--port", type=int, default=8501, help="port (default 8501)")
    ui.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    add_eval_parser(sub)
    return parser


def _add_answer_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("-k", "--top-k", type=int, help="number of source papers (default 5, env RAG_TOP_K)")
    p.add_argument("--papers", help="only consider these paper ids, comma-separated (e.g. p05,p07)")
    p.add_argument("--retriever", choices=["hybrid", "dense", "bm25"], help="retrieval method (default hybrid)")
    p.add_argument("--extractive", action="store_true", help="quote the abstracts even if an LLM is configured")


def add_filter_options(p: argparse.ArgumentParser) -> None:
    """--venue / --year, shared by ask, chat and papers."""
    p.add_argument("--venue", action="append", metavar="NAME",
                   help="only papers of this venue (repeatable; names as in the corpus, any case)")
    p.add_argument("--year", metavar="YEARS", help="only papers of these years: 2022, 2019-2021, 2019- or -2021")


def filters_from(args: argparse.Namespace, papers: Sequence[Paper]) -> Filters | None:
    """The --venue/--year flags as Filters (venue names checked against the corpus); None without flags."""
    if not args.venue and not args.year:
        return None
    venues = canonical_venues(args.venue or [], venue_counts(papers))
    low, high = parse_year_range(args.year) if args.year else (None, None)
    return Filters(venues, low, high)


def settings_from(args: argparse.Namespace) -> Settings:
    overrides = {
        "data_dir": args.data_dir, "chroma_host": args.chroma_host, "chroma_port": args.chroma_port,
        "retriever": getattr(args, "retriever", None), "top_k": getattr(args, "top_k", None),
    }
    return Settings(**{k: v for k, v in overrides.items() if v is not None})


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    from .assistant import QuestionError
    from .corpus import CorpusError
    from .embedding import EmbeddingError
    from .store import StoreError

    try:
        return COMMANDS[args.command](args)
    except (CorpusError, StoreError, EmbeddingError, QuestionError, FilterError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("\ninterrupted: papers indexed so far are kept; run the command again to continue.", file=sys.stderr)
        return 130


def cmd_ingest(args: argparse.Namespace) -> int:
    from .assistant import Assistant
    from .indexing import remembered_corpus

    settings = settings_from(args)
    if args.paths:
        current = (remembered_corpus(settings.data_dir) or []) if args.add else []
        settings = settings.model_copy(update={"corpus": current + [p.resolve() for p in args.paths]})
    assistant = Assistant.open(settings, progress=not args.quiet)
    print(assistant.last_ingest.summary() if assistant.last_ingest else "index up to date")
    print(f"store: {assistant.store.location}")
    return 0


def _open(args: argparse.Namespace):
    from .assistant import Assistant

    return Assistant.open(settings_from(args), progress=not args.quiet)


def _paper_filter(args: argparse.Namespace) -> list[str] | None:
    return [p.strip() for p in args.papers.split(",") if p.strip()] if args.papers else None


def cmd_ask(args: argparse.Namespace) -> int:
    from .assistant import validate_question

    validate_question(args.question, settings_from(args).max_question_chars)  # before the slow start-up
    assistant = _open(args)
    response = assistant.ask(args.question, paper_ids=_paper_filter(args), use_llm=not args.extractive,
                             filters=filters_from(args, assistant.papers))
    if args.json:
        print(json.dumps(response.result().to_dict(), indent=2, ensure_ascii=False))
        return 0
    _print_streamed(response)
    return 0


def _print_streamed(response) -> None:
    """Stream the answer to stdout, then the notice, mode and numbered sources."""
    for delta in response:
        print(delta, end="", flush=True)
    answer = response.answer
    print()
    if answer.notice:
        print(f"\nnote: {answer.notice}")
    mode = {"extractive": "extractive answer: sentences quoted from the abstracts, no language model",
            "llm": f"written by {answer.model}", "fallback": "extractive fallback"}[answer.mode]
    removed = f"; {answer.removed_citations} invalid citation(s) removed" if answer.removed_citations else ""
    print(f"\n[{mode}{removed}]")
    unsupported = [s for s in answer.support if not s.supported]
    if unsupported:
        print(f"\nnot clearly supported by the sources they cite ({len(unsupported)}):")
        for claim in unsupported:
            print(f"  - {claim.sentence[:160]}  (support {claim.score:.2f})")
    if answer.sources:
        print("\nClosest papers (none answers this):" if answer.refused and not answer.cited else "\nSources:")
    for source in answer.sources:
        mark = "*" if source.number in answer.cited else " "
        print(f"{mark}[{source.number}] {source.paper.label} ({source.paper.id})  relevance {source.score:.2f}")
        if source.paper.url:
            print(f"     {source.paper.url}")
    if answer.cited:
        print("(* cited in the answer)")


def cmd_chat(args: argparse.Namespace) -> int:
    from .assistant import QuestionError
    from .generation import Message

    assistant = _open(args)
    filters = filters_from(args, assistant.papers)
    history: list[Message] = []
    print(f"{len(assistant.papers)} papers indexed. Ask a question (Ctrl-D to quit).")
    while True:
        try:
            question = input("\nyou> ").strip()
        except EOFError:
            print()
            return 0
        if not question:
            continue
        try:
            response = assistant.ask(question, history=history, paper_ids=_paper_filter(args),
                                      use_llm=not args.extractive, filters=filters)
        except QuestionError as exc:
            print(f"error: {exc}")
            continue
        print()
        _print_streamed(response)
        history += [Message("user", question), Message("assistant", response.answer.text)]


def cmd_papers(args: argparse.Namespace) -> int:
    from .corpus import load_corpus
    from .indexing import resolve_corpus
    from .config import SEED_CORPUS

    settings = settings_from(args)
    papers = load_corpus(resolve_corpus(settings.corpus, settings.data_dir, SEED_CORPUS))
    filters = filters_from(args, papers)
    papers = [p for p in papers if filters.matches(p)] if filters else papers
    if not papers:
        print("no papers match these filters")
        return 0
    if args.json:
        print(json.dumps([{"id": p.id, "label": p.label, "title": p.title, "url": p.url, "links": list(p.links),
                           "venue": paper_venue(p), "year": paper_year(p), "abstract": p.text} for p in papers], indent=2, ensure_ascii=False))
        return 0
    width = max(len(p.id) for p in papers)
    for paper in papers:
        print(f"{paper.id:<{width}}  {paper.label[:40]:<40}  {paper.text[:70]}...")
    print(f"\n{len(papers)} papers")
    return 0


def cmd_ui(args: argparse.Namespace) -> int:
    assistant = _open(args)  # build/update the index here, with a progress bar in the terminal
    print(assistant.last_ingest.summary() if assistant.last_ingest else "index up to date")
    del assistant  # the UI process opens the store itself
    env = dict(os.environ)
    if args.data_dir:
        env["RAG_DATA_DIR"] = str(args.data_dir)
    if args.chroma_host:
        env["RAG_CHROMA_HOST"] = args.chroma_host
    if args.chroma_port:
        env["RAG_CHROMA_PORT"] = str(args.chroma_port)
    print(f"Chat UI: http://{args.host}:{args.port}  (Ctrl-C to stop)", flush=True)
    command = [sys.executable, "-m", "streamlit", "run", str(PROJECT_ROOT / "ui" / "app.py"),
               "--server.address", args.host, "--server.port", str(args.port), "--server.headless", "true",
               "--browser.gatherUsageStats", "false", "--client.toolbarMode", "minimal"]
    return subprocess.call(command, env=env)


COMMANDS = {"ingest": cmd_ingest, "ask": cmd_ask, "chat": cmd_chat, "papers": cmd_papers, "ui": cmd_ui,
            "eval": cmd_eval}

if __name__ == "__main__":
    sys.exit(main())

"""Embeddings, the Chroma store and incremental ingest, across processes and in server mode.

Everything is real: the bundled all-MiniLM-L6-v2, Chroma on disk (or a ``chroma run``
server), the ``rag`` console script in subprocesses. Index-changing tests work on a
copy of the session's CLI-built index so that they never disturb each other.
"""

from __future__ import annotations

import json
import re
import shutil
import socket
import uuid
from pathlib import Path
from typing import Any

import chromadb
import numpy as np
import pytest
from chromadb.config import Settings as ChromaSettings

from rag import store as store_module
from rag.assistant import Assistant
from rag.config import SEED_CORPUS
from rag.corpus import load_corpus, load_path
from rag.indexing import MANIFEST, ingest
from rag.store import StoreError, VectorStore

SUMMARY = re.compile(
    r"(?P<papers>\d+) papers: (?P<added>\d+) added, (?P<updated>\d+) updated, (?P<removed>\d+) removed, "
    r"(?P<unchanged>\d+) unchanged; (?P<embedded>\d+) chunks embedded"
)
WHO_WHEN = "How many failed trajectories does Who&When Pro contain?"
EDIT_SENTENCE = "This sentence was appended by the edit test to change the paper's content hash."


# --------------------------------------------------------------------------- helpers


def summary_of(stdout: str) -> dict[str, int]:
    """The numbers of the ``IngestReport.summary()`` line printed by ``rag ingest``."""
    match = SUMMARY.search(stdout)
    assert match, f"no ingest summary in output:\n{stdout}"
    return {k: int(v) for k, v in match.groupdict().items()}


def raw_collection(data_dir: Path, name: str = "abstracts") -> Any:
    """The Chroma collection of an embedded index, through chromadb's public API."""
    client = chromadb.PersistentClient(
        path=str(Path(data_dir) / "chroma"), settings=ChromaSettings(anonymized_telemetry=False)
    )
    return client.get_collection(name, embedding_function=None)


def stored(collection: Any) -> tuple[list[str], list[str], list[dict]]:
    got = collection.get(include=["documents", "metadatas"])
    return got["ids"], got["documents"], got["metadatas"]


def copy_index(src: Path, dst: Path) -> Path:
    """Copy a (closed) embedded index so a test can change it freely."""
    shutil.copytree(src, dst)
    return dst


def seed_paragraphs() -> list[str]:
    """The seed file split into its header and abstracts, as the loader sees them."""
    (seed_file,) = sorted(SEED_CORPUS.glob("*.txt"))
    return [p for p in re.split(r"\n[ \t]*\n", seed_file.read_text(encoding="utf-8")) if p.strip()]


def cosine(a: np.ndarray, b: np.ndarray) -> float:
    return float(a @ b / (np.linalg.norm(a) * np.linalg.norm(b)))


# --------------------------------------------------------------------------- embeddings


def test_embeddings_are_real_unit_vectors(seed_embedder) -> None:
    sentences = [
        "A cat is sleeping on the sofa.",
        "A kitten naps on the couch.",
        "The central bank raised interest rates again this quarter.",
    ]
    vectors = seed_embedder.embed(sentences)
    assert seed_embedder.dimension == 384
    assert vectors.shape == (3, 384)
    assert vectors.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-4)
    similar, unrelated = float(vectors[0] @ vectors[1]), float(vectors[0] @ vectors[2])
    assert similar > 0.5, similar
    assert similar > unrelated + 0.3, (similar, unrelated)
    np.testing.assert_allclose(seed_embedder.embed_query(sentences[1]), vectors[1], atol=1e-5)
    assert seed_embedder.embed([]).shape == (0, 384)


def test_query_vectors_are_encoded_in_one_batch_and_remembered(seed_embedder, monkeypatch) -> None:
    """An answer's short texts are encoded together; a text asked again is not encoded again."""
    texts = ["river pollution sensors", "coastal flood maps", f"a text no test used before {uuid.uuid4()}"]
    alone = [seed_embedder.embed([t])[0] for t in texts]
    batches: list[list[str]] = []
    encode = seed_embedder.embed
    monkeypatch.setattr(seed_embedder, "embed", lambda batch, progress=False: batches.append(list(batch))
                        or encode(batch, progress))
    together = seed_embedder.embed_queries([*texts, texts[0]])
    assert len(together) == 4 and len(batches) == 1, batches  # one encoder call for all the new texts
    assert texts[2] in batches[0] and len(batches[0]) == len(set(batches[0])), batches
    for vector, single in zip(together, [*alone, alone[0]], strict=True):
        np.testing.assert_allclose(vector, single, atol=1e-5)  # padding in a batch changes nothing
        assert not vector.flags.writeable
    batches.clear()
    np.testing.assert_allclose(seed_embedder.embed_query(texts[2]), alone[2], atol=1e-5)
    assert batches == []  # remembered


def test_stored_vectors_are_the_models_embeddings_of_the_chunks(seed_assistant) -> None:
    ids, documents, _ = stored(raw_collection(seed_assistant.settings.data_dir))
    sample = dict(list(zip(ids, documents, strict=True))[:5])
    vectors = seed_assistant.store.get_vectors(list(sample))
    assert set(vectors) == set(sample)
    fresh = seed_assistant.embedder.embed(list(sample.values()))
    for (chunk_id, _), again in zip(sample.items(), fresh, strict=True):
        assert vectors[chunk_id].shape == (384,)
        assert cosine(vectors[chunk_id], again) > 0.999, chunk_id


def test_search_within_named_papers_matches_chromas_own_filtered_query(seed_assistant) -> None:
    """Named papers are scored from their stored vectors, not by a ``$in``-filtered Chroma query:
    the hits, order and similarities must be what Chroma itself returns."""
    store, vector = seed_assistant.store, seed_assistant.embedder.embed_query("agents that fail at tasks")
    named = ["p05", "p07", "p19"]
    ours = store.query(vector, 4, paper_ids=named)
    theirs = raw_collection(seed_assistant.settings.data_dir).query(
        query_embeddings=[vector], n_results=4, where={"paper_id": {"$in": named}}, include=["distances"])
    assert [h.chunk_id for h in ours] == theirs["ids"][0]
    np.testing.assert_allclose([h.similarity for h in ours], [1 - d for d in theirs["distances"][0]], atol=1e-4)
    assert {h.paper_id for h in store.query(vector, 1000, paper_ids=named)} == set(named)
    assert len(store.query(vector, 10_000)) == store.count()  # more than it holds: all of it, no error
    assert store.query(vector, 5, paper_ids=["no-such-paper"]) == []


@pytest.mark.parametrize("per_ask", [1, 2, 3])
def test_search_within_papers_reads_every_chunk_of_long_abstracts(seed_assistant, monkeypatch, per_ask) -> None:
    """Chunks are asked for by id a few at a time; an abstract with more chunks than one ask covers
    (p19 has several) must still be scored on all of them."""
    monkeypatch.setattr(store_module, "CHUNKS_PER_ASK", per_ask)
    ids, _, metadatas = stored(raw_collection(seed_assistant.settings.data_dir))
    assert max(m["n_chunks"] for m in metadatas) > per_ask
    store, vector = seed_assistant.store, seed_assistant.embedder.embed_query("agents that fail at tasks")
    hits = store.query(vector, 10_000, paper_ids=[p.id for p in seed_assistant.papers])
    assert sorted(h.chunk_id for h in hits) == sorted(ids)


def test_every_stored_chunk_fits_the_model_window(seed_assistant) -> None:
    embedder = seed_assistant.embedder
    assert embedder.max_tokens == 256
    ids, documents, metadatas = stored(raw_collection(seed_assistant.settings.data_dir))
    assert len(ids) == seed_assistant.store.count() == len(set(ids))
    too_long = {cid: n for cid, doc in zip(ids, documents, strict=True) if (n := embedder.count_tokens(doc)) > 256}
    assert not too_long, f"chunks over the 256-token window: {too_long}"
    # Long abstracts really were split (p19 alone is >500 tokens), and chunks quote the paper exactly.
    per_paper: dict[str, int] = {}
    for doc, meta in zip(documents, metadatas, strict=True):
        paper = seed_assistant.by_id[meta["paper_id"]]
        assert paper.text[meta["start"] : meta["end"]] == doc
        per_paper[meta["paper_id"]] = per_paper.get(meta["paper_id"], 0) + 1
    assert set(per_paper) == {p.id for p in seed_assistant.papers}
    assert max(per_paper.values()) >= 3
    assert all(per_paper[m["paper_id"]] == m["n_chunks"] for m in metadatas)


def test_chunk_tokens_setting_is_capped_at_the_model_window(tmp_path, make_settings) -> None:
    """RAG_CHUNK_TOKENS accepts up to 512, but the bundled model only sees 256 tokens.

    Chunks longer than the window are silently truncated by sentence-transformers, so
    their tail is never embedded. The stored chunks must stay within the embedder's window.
    """
    longest = sorted(load_corpus([SEED_CORPUS]), key=lambda p: -len(p.text))[:2]
    corpus = tmp_path / "long.jsonl"
    corpus.write_text("".join(json.dumps({"id": p.id, "abstract": p.text}) + "\n" for p in longest))
    settings = make_settings(data_dir=tmp_path / "data", corpus=[corpus], chunk_tokens=400)
    assistant = Assistant.open(settings, progress=False)
    _, documents, _ = stored(raw_collection(settings.data_dir))
    counts = [assistant.embedder.count_tokens(d) for d in documents]
    assert max(counts) <= assistant.embedder.max_tokens, (
        f"chunk_tokens=400 produced chunks of {sorted(counts)} tokens; the model window is "
        f"{assistant.embedder.max_tokens}, so the rest of each chunk is never embedded"
    )


def test_changing_chunk_tokens_rechunks_an_existing_index(cli_data_dir, seed_embedder, make_settings, tmp_path) -> None:
    """An index built with chunk_tokens=200 must not be reported 'unchanged' under chunk_tokens=96."""
    data_dir = copy_index(cli_data_dir[0], tmp_path / "data")
    store = VectorStore.open(data_dir, "abstracts")
    papers = load_corpus([SEED_CORPUS])
    report = ingest(papers, store, seed_embedder, max_tokens=96, overlap_sentences=1, progress=False)
    _, documents, _ = stored(raw_collection(data_dir))
    too_long = [n for d in documents if (n := seed_embedder.count_tokens(d)) > 96]
    assert not too_long, (
        f"after re-ingesting with chunk_tokens=96 ({report.summary()}), {len(too_long)} stored chunks are "
        f"still longer than 96 tokens (up to {max(too_long)}): the chunking settings are not part of the index state"
    )


# --------------------------------------------------------------------------- persistence across processes


def test_ingest_persists_across_processes_without_duplicates(cli_data_dir, rag_cli) -> None:
    data_dir, first = cli_data_dir
    before = summary_of(first.stdout)
    assert before == {**before, "papers": 19, "added": 19, "updated": 0, "removed": 0, "unchanged": 0}
    assert before["embedded"] > 19  # long abstracts take several chunks

    second = rag_cli("ingest", data_dir=data_dir)
    assert second.returncode == 0, second.stderr
    after = summary_of(second.stdout)
    assert after == {"papers": 19, "added": 0, "updated": 0, "removed": 0, "unchanged": 19, "embedded": 0}
    assert "0 chunks embedded" in second.stdout and "19 unchanged" in second.stdout
    assert f"store: {data_dir / 'chroma'}" in second.stdout

    collection = raw_collection(data_dir)
    ids, _, metadatas = stored(collection)
    assert collection.count() == len(ids) == len(set(ids)) == before["embedded"]
    assert {m["paper_id"] for m in metadatas} == {f"p{i:02d}" for i in range(1, 20)}
    manifest = json.loads((data_dir / MANIFEST).read_text())
    assert manifest["corpus"] == [str(SEED_CORPUS.resolve())]


@pytest.fixture(scope="module")
def edited_ingest(cli_data_dir, rag_cli, tmp_path_factory) -> dict[str, Any]:
    """`rag ingest FOLDER` on a copy of the index, FOLDER holding the seeds with p07 edited and p19 gone."""
    root = tmp_path_factory.mktemp("edited")
    data_dir = copy_index(cli_data_dir[0], root / "data")
    header, *abstracts = seed_paragraphs()
    assert len(abstracts) == 19
    abstracts[6] = abstracts[6].rstrip() + " " + EDIT_SENTENCE  # p07
    corpus = root / "corpus"
    corpus.mkdir()
    (corpus / "seeds_edited.txt").write_text("\n\n".join([header, *abstracts[:18]]) + "\n", encoding="utf-8")
    papers = load_path(corpus)
    originals = {p.id: p for p in load_corpus([SEED_CORPUS])}
    assert [p.id for p in papers] == [f"p{i:02d}" for i in range(1, 19)]
    assert [p.id for p in papers if p.content_hash != originals[p.id].content_hash] == ["p07"]

    run = rag_cli("-q", "ingest", str(corpus), data_dir=data_dir)
    assert run.returncode == 0, run.stderr
    collection = raw_collection(data_dir)
    ids, documents, metadatas = stored(collection)
    return {"run": run, "summary": summary_of(run.stdout), "papers": {p.id: p for p in papers},
            "originals": originals, "ids": ids, "documents": documents, "metadatas": metadatas,
            "data_dir": data_dir, "corpus": corpus, "store": VectorStore.open(data_dir, "abstracts")}


def test_changed_paper_is_the_only_one_reembedded(edited_ingest) -> None:
    summary = edited_ingest["summary"]
    assert (summary["added"], summary["updated"], summary["unchanged"]) == (0, 1, 17), edited_ingest["run"].stdout
    states = edited_ingest["store"].paper_states()
    p07 = edited_ingest["papers"]["p07"]
    assert states["p07"].content_hash.split(":")[0] == p07.content_hash  # tag = content hash + index signature
    assert summary["embedded"] == states["p07"].expected_chunks, "more than the changed paper was embedded"
    p07_docs = [d for d, m in zip(edited_ingest["documents"], edited_ingest["metadatas"], strict=True)
                if m["paper_id"] == "p07"]
    assert len(p07_docs) == states["p07"].expected_chunks
    assert any(EDIT_SENTENCE in d for d in p07_docs)
    for pid, state in states.items():
        assert state.complete, pid
        if pid != "p07":
            assert state.content_hash.split(":")[0] == edited_ingest["originals"][pid].content_hash, pid
    assert len(edited_ingest["ids"]) == len(set(edited_ingest["ids"]))


def test_removed_paper_loses_its_chunks(edited_ingest) -> None:
    summary = edited_ingest["summary"]
    assert (summary["papers"], summary["removed"]) == (18, 1), edited_ingest["run"].stdout
    paper_ids = {m["paper_id"] for m in edited_ingest["metadatas"]}
    assert paper_ids == {f"p{i:02d}" for i in range(1, 19)}
    assert not any(cid.startswith("p19#") for cid in edited_ingest["ids"])
    states = edited_ingest["store"].paper_states()
    assert len(edited_ingest["ids"]) == sum(s.expected_chunks for s in states.values())
    manifest = json.loads((edited_ingest["data_dir"] / MANIFEST).read_text())
    assert manifest["corpus"] == [str(edited_ingest["corpus"].resolve())]


def test_interrupted_ingest_redoes_only_the_damaged_papers(cli_data_dir, seed_embedder, make_settings,
                                                           tmp_path) -> None:
    data_dir = copy_index(cli_data_dir[0], tmp_path / "data")
    store = VectorStore.open(data_dir, "abstracts")
    collection = raw_collection(data_dir)
    intact = store.paper_states()
    total = store.count()
    by_size = sorted(intact, key=lambda pid: (-intact[pid].expected_chunks, pid))
    partial, mixed, missing = by_size[0], by_size[1], by_size[2]
    assert intact[partial].expected_chunks >= 2 and intact[mixed].expected_chunks >= 2

    # A crash while writing `partial`: its last chunk never landed.
    collection.delete(ids=[f"{partial}#{intact[partial].expected_chunks - 1}"])
    # A crash mid-update of `mixed`: one chunk still carries another version's hash.
    got = collection.get(ids=[f"{mixed}#0"], include=["metadatas"])
    collection.update(ids=[f"{mixed}#0"], metadatas=[{**got["metadatas"][0], "paper_hash": "0" * 16}])
    # A crash between deleting `missing`'s old chunks and writing the new ones.
    collection.delete(where={"paper_id": missing})

    damaged = store.paper_states()
    assert not damaged[partial].complete and damaged[mixed].content_hash == "" and missing not in damaged

    settings = make_settings()
    papers = load_corpus([SEED_CORPUS])
    report = ingest(papers, store, seed_embedder, settings.chunk_tokens, settings.chunk_overlap_sentences,
                    progress=False)
    assert (report.added, report.updated, report.removed, report.unchanged) == (1, 2, 0, 16), report.summary()
    assert report.chunks_embedded == sum(intact[p].expected_chunks for p in (partial, mixed, missing))
    repaired = store.paper_states()
    assert repaired == intact
    assert all(s.complete for s in repaired.values())
    assert store.count() == total

    again = ingest(papers, store, seed_embedder, settings.chunk_tokens, settings.chunk_overlap_sentences,
                   progress=False)
    assert (again.unchanged, again.chunks_embedded) == (19, 0)


def test_malformed_corpus_file_fails_cleanly_and_keeps_the_index(cli_data_dir, rag_cli, tmp_path) -> None:
    data_dir = copy_index(cli_data_dir[0], tmp_path / "data")
    chunks_before = summary_of(cli_data_dir[1].stdout)["embedded"]
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"id": "ok1", "abstract": "A perfectly fine abstract."}\n'
                   '{"id": "ok2", "abstract": "this line is cut off\n'
                   '{"id": "ok3", "abstract": "Another fine abstract."}\n', encoding="utf-8")

    run = rag_cli("-q", "ingest", str(bad), data_dir=data_dir)
    assert run.returncode != 0
    assert "Traceback" not in run.stderr, run.stderr
    assert re.search(r"bad\.jsonl:2\b", run.stderr), run.stderr
    assert "invalid JSON" in run.stderr

    collection = raw_collection(data_dir)
    assert collection.count() == chunks_before
    states = VectorStore.open(data_dir, "abstracts").paper_states()
    assert len(states) == 19 and all(s.complete for s in states.values())
    assert json.loads((data_dir / MANIFEST).read_text())["corpus"] == [str(SEED_CORPUS.resolve())]


# --------------------------------------------------------------------------- Chroma server mode


def test_chroma_server_mode_answers_and_reopens_idempotently(chroma_server, make_settings, tmp_path) -> None:
    host, port = chroma_server
    collection = f"abstracts-{uuid.uuid4().hex[:8]}"  # the server is shared with other tests
    settings = make_settings(chroma_host=host, chroma_port=port, collection=collection,
                             data_dir=tmp_path / "data", corpus=[SEED_CORPUS])

    first = Assistant.open(settings, progress=False)
    assert first.store.location == f"Chroma server http://{host}:{port}"
    assert first.last_ingest is not None
    assert (first.last_ingest.added, first.last_ingest.unchanged) == (19, 0)
    embedded = first.last_ingest.chunks_embedded
    assert embedded > 19
    assert not (settings.data_dir / "chroma").exists(), "server mode must not create an embedded store"

    server = chromadb.HttpClient(host=host, port=port, settings=ChromaSettings(anonymized_telemetry=False))
    assert server.get_collection(collection, embedding_function=None).count() == embedded

    answer = first.answer(WHO_WHEN)
    assert answer.mode == "extractive" and not answer.refused
    assert "p05" in [s.paper_id for s in answer.cited_sources]
    assert "12,326" in answer.text

    reader = Assistant.open(settings, progress=False)  # reading commands open read-only: nothing re-synced
    assert reader.last_ingest is None and reader.store.count() == embedded
    second = Assistant.open(settings, progress=False, update=True)  # what `rag ingest` does
    assert second.last_ingest is not None
    assert (second.last_ingest.unchanged, second.last_ingest.chunks_embedded) == (19, 0)
    assert second.store.count() == embedded
    assert server.get_collection(collection, embedding_function=None).count() == embedded
    assert second.answer(WHO_WHEN).text == answer.text


def test_unreachable_chroma_server_is_a_clear_store_error(tmp_path) -> None:
    with socket.socket() as sock:  # a port nobody listens on
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    with pytest.raises(StoreError, match=rf"Chroma server at 127\.0\.0\.1:{port}"):
        VectorStore.open(tmp_path, "abstracts", host="127.0.0.1", port=port)


def _search_ef(client: chromadb.api.ClientAPI, collection: str) -> int:
    return int(client.get_collection(collection).configuration_json["hnsw"]["ef_search"])


@pytest.mark.filterwarnings("ignore:legacy embedding function config:DeprecationWarning")  # chromadb reading ours
@pytest.mark.parametrize("where", ["embedded", "server"])
def test_search_breadth_setting_reaches_new_and_existing_collections(where, chroma_server, tmp_path) -> None:
    """Chroma's default HNSW breadth missed 20% of the exact nearest chunks at 50k papers (benchmarks/hnsw.py)."""
    host, port = chroma_server if where == "server" else (None, 8000)
    name = f"breadth-{uuid.uuid4().hex[:8]}"
    VectorStore.open(tmp_path, name, host, port, search_ef=321)  # a new collection is created with it
    telemetry = ChromaSettings(anonymized_telemetry=False)
    other = chromadb.HttpClient(host=host, port=port, settings=telemetry) if host else \
        chromadb.PersistentClient(path=str(tmp_path / "chroma"), settings=telemetry)
    assert _search_ef(other, name) == 321
    VectorStore.open(tmp_path, name, host, port, search_ef=654)  # an existing one is changed
    assert _search_ef(other, name) == 654

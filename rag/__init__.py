"""Cited question answering over a corpus of paper abstracts.

The pipeline reads top to bottom, one module per step:
corpus -> chunking -> embedding -> store -> retrieval -> extractive | generation
-> citations, all behind :class:`rag.assistant.Assistant`.
"""

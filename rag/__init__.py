"""Cited question answering over a corpus of paper abstracts.

The pipeline reads top to bottom, one module per step:
corpus -> chunking -> embedding -> store/indexing -> lexical + retrieval -> questions
-> extractive | generation -> citations, all behind :class:`rag.assistant.Assistant`;
``cli`` and ``ui/`` are shells over it and ``evaluation`` scores question sets.
"""

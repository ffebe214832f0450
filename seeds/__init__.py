"""The shipped seed corpus, as package data: the wheel installs this folder as ``rag.seed_corpus``."""

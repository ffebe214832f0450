"""Measurements too slow for the test suite (see README.md here).

A regular package, so that an installed top-level ``benchmarks`` (pysbd ships one)
cannot shadow it when a script does ``from benchmarks.titles import ...``.
"""

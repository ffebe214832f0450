"""The prompt templates, as package data: the wheel installs this folder as ``rag.prompt_templates``."""

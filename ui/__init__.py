"""The Streamlit chat UI over :class:`rag.assistant.Assistant` (entry point: ``ui/app.py``)."""

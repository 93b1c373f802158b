"""The scholarly registries: one module per source over one shared HTTP layer (`http.py`).

Each source module has pure request builders (what to ask) and pure parsers (what the answer
says, as WorkRecords); fetching, politeness, retries and caching live only in `http.py`.
"""

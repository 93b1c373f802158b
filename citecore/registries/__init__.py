"""The scholarly registries: one module per source over one shared HTTP layer (`http.py`).

Each source module has pure request builders (what to ask), pure parsers (what the answer says,
as WorkRecords) and a `REGISTRY` declaration (`registry.py`: its address, published limits, how
a request carries the user's identity and key, its title search and DOI lookup); `catalogue.py`
gathers them. Fetching, politeness, retries and caching live only in `http.py`.
"""

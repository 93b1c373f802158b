"""Sources the writer does not have at hand: legal open-access copies from the registries and
the PDFs of the writer's own reference manager, stored in the sources folder as `<key>.pdf`
(or `.md` for full text) with a manifest, `sources.json`, of where each came from.

The stage sits between verification and grounding: grounding then reads the folder as always.
"""

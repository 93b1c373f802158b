"""`citecheck lsp`: the checks of the builds as live diagnostics in the writer's editor."""

"""Scenario tests: the product as a writer meets it (the README, the examples, the Action,
Quarto, malformed and fuzzed input, secrets), across packages."""

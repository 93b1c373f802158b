"""citecheck's version, in a module of its own: every layer names it (reports, the user agent,
the build server's stamp) without importing the package's public face."""

__version__ = "0.1.0"

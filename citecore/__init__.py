"""citecore: the library behind citecheck, a citation checker that runs inside document builds."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("citecore")
except PackageNotFoundError:  # running from a source tree that was never installed
    __version__ = "0.0.0"

__all__ = ["__version__"]

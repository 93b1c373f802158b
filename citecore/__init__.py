"""citecore: the library behind citecheck, a citation checker that runs inside document builds."""

__version__ = "0.1.0"

__all__ = ["__version__"]

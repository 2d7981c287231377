"""The error every layer may raise for a mistake in its input (the interface turns it into one line), and the reader
of the whole-number environment variables every layer has (one line on a mistake, never the default unsaid)."""

import os


class ConfigError(ValueError):
    """A configuration mistake: the message names the key, the value and what was expected."""


def env_whole(var: str, default, unit: str, least: int = 0, most=None, note: str = ""):
    """The whole number of `unit` in environment variable `var` (`default` where unset or empty). Anything else,
    or one outside least..most, is a ConfigError naming it: a mistyped value was taken as the default, unsaid, or
    was a traceback ('64M', Unicode digits)."""
    text = os.environ.get(var, "").strip()
    if not text:
        return default
    if not (text.isascii() and text.isdigit()) or int(text) < least or (most is not None and int(text) > most):
        bound = f" >= {least}" + (f" and <= {most}" if most is not None else "")
        raise ConfigError(f"{var} = {text!r}: expected a whole number of {unit}{bound}{note}")
    return int(text)

"""The error every layer may raise for a mistake in its input (the interface turns it into one line), and the reader
of the whole-number environment variables every layer has (one line on a mistake, never the default unsaid)."""

import os
import sys


class ConfigError(ValueError):
    """A configuration mistake: the message names the key, the value and what was expected."""


INT_DIGITS_SHOWN = 30  # an integer of more digits is shown cut, with its count of digits


def int_digits_read() -> int:
    """Python's limit for reading an integer from text in this process: 4300 unless PYTHONINTMAXSTRDIGITS or
    -X int_max_str_digits set another (0: none). A fixed 4300 said '(2000 digits): expected at most 4300' where
    the limit was 1000, and let argparse's 'invalid _integer value' through."""
    return sys.get_int_max_str_digits() if hasattr(sys, "get_int_max_str_digits") else 0


def said_int(n: int) -> str:
    """An integer as a message shows it: whole up to INT_DIGITS_SHOWN digits, else its first and last digits and how
    many it has (--steps of 300 digits was echoed whole in its one line)."""
    if not isinstance(n, int):
        return str(n)
    try:
        s = str(abs(n))
    except ValueError:  # beyond the digits Python writes (its limit lowered): no digits to show
        return f"{'a negative' if n < 0 else 'an'} integer of about {int(abs(n).bit_length() * 0.30103) + 1} digits"
    if len(s) <= INT_DIGITS_SHOWN:
        return str(n)
    return f"{'-' if n < 0 else ''}{cut_digits(s)} ({len(s)} digits)"


def cut_digits(digits: str) -> str:
    """A long run of digits cut to its first 12 and last 6 (said_int's and said_digits' form)."""
    return f"{digits[:12]}...{digits[-6:]}"


def said_digits(text: str) -> str:
    """A run of digits as a message shows it (said_int's form), for text that cannot be read as an integer."""
    t = text.strip()
    digits = t.lstrip("+-")
    if len(digits) <= INT_DIGITS_SHOWN:
        return repr(t)
    return f"'{t[:len(t) - len(digits)]}{cut_digits(digits)}' ({len(digits)} digits)"


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

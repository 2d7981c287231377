"""The error every layer may raise for a mistake in its input (the interface turns it into one line)."""


class ConfigError(ValueError):
    """A configuration mistake: the message names the key, the value and what was expected."""

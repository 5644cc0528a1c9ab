"""The tables, panels and trees of each kind of answer, built with ``cli.render``."""

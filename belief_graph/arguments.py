"""Validation of the public API's plain arguments (namespaces, ids, subjects, moments).

Drafts validate themselves; this does the same for the arguments of reads and operations, so a
bad value is a pydantic ``ValidationError`` whose ``loc`` names the parameter, raised before
anything reaches the database.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import Any, ParamSpec, TypeVar

from pydantic import TypeAdapter, ValidationError
from pydantic_core import InitErrorDetails, PydanticCustomError

from .models import Identifier, Moment, Term, Text

P = ParamSpec("P")
R = TypeVar("R")

_RULES: dict[str, TypeAdapter[Any]] = {
    "namespace": TypeAdapter(Identifier),
    "claim_id": TypeAdapter(Identifier),
    "revision_id": TypeAdapter(Identifier | None),
    "new_revision_id": TypeAdapter(Identifier | None),
    "claim_ids": TypeAdapter(list[Identifier] | None),
    "subject": TypeAdapter(Term | None),
    "predicate": TypeAdapter(Term),
    "object": TypeAdapter(Term),
    "actor": TypeAdapter(Term | None),
    "text": TypeAdapter(Text),
    "query": TypeAdapter(Text),
    "valid_at": TypeAdapter(Moment | None),
    "known_at": TypeAdapter(Moment | None),
    "valid_to": TypeAdapter(Moment | None),
}


def checked(func: Callable[P, R]) -> Callable[P, R]:
    """Validate the arguments ``func`` takes by the names in ``_RULES``."""
    signature = inspect.signature(func)
    names = [n for n in signature.parameters if n in _RULES]

    @functools.wraps(func)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        bound = signature.bind(*args, **kwargs)
        errors: list[InitErrorDetails] = []
        for name in names:
            if name not in bound.arguments:
                continue
            try:
                bound.arguments[name] = _RULES[name].validate_python(bound.arguments[name])
            except ValidationError as exc:
                for error in exc.errors():
                    errors.append(
                        InitErrorDetails(
                            type=PydanticCustomError("invalid_argument", error["msg"]),
                            loc=(name, *error["loc"]),
                            input=error.get("input"),
                        )
                    )
        if errors:
            raise ValidationError.from_exception_data(func.__name__, errors)
        return func(*bound.args, **bound.kwargs)

    return wrapper

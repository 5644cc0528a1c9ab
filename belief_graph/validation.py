"""Validation of the public API's arguments, derived from their type hints.

Drafts validate themselves; ``checked`` does the same for every argument of the reads and
operations: each parameter is validated by its annotation (the constrained types of
``models.py``: ``Identifier``, ``Term``, ``Text``, ``Reason``, ``Moment``, bounded numbers), so
a bad value is a pydantic ``ValidationError`` whose ``loc`` names the parameter, raised before
anything reaches the database. The annotation is the only rule: a parameter whose type lets
values through unchecked (a bare ``str`` or ``int``, ``Any``, no annotation) is a programming
error that ``gaps`` names, ``checked`` refuses to run and the unit tests look for.
"""

from __future__ import annotations

import functools
import inspect
import operator
import types
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from datetime import datetime
from typing import Annotated, Any, Literal, ParamSpec, TypeVar, Union, get_args, get_origin
from typing import get_type_hints as _hints

from pydantic import (
    AfterValidator,
    AwareDatetime,
    BaseModel,
    InstanceOf,
    TypeAdapter,
    ValidationError,
)
from pydantic.fields import FieldInfo
from pydantic_core import InitErrorDetails, PydanticCustomError

P = ParamSpec("P")
R = TypeVar("R")

_COLLECTIONS = (list, tuple, Sequence, Iterable)
_PLAIN = (bool, type(None))


def _constraints(metadata: Sequence[Any]) -> list[Any]:
    found: list[Any] = []
    for item in metadata:
        found.extend(item.metadata if isinstance(item, FieldInfo) else [item])
    return found


def _constrained(base: Any, metadata: Sequence[Any]) -> str | None:
    rules = _constraints(metadata)

    def has(*names: str) -> bool:
        # Field(...)'s constraints are annotated-types objects named by their attribute.
        return any(hasattr(rule, name) for rule in rules for name in names)

    screened = any(isinstance(rule, AfterValidator) for rule in rules)
    if any(type(rule) is InstanceOf for rule in rules):
        return None  # an object of a given class (or runtime-checkable protocol)
    if base is str:
        if has("max_length") and screened:
            return None
        return "a str needs a maximum length and a content check (use a type from models.py)"
    if base in (int, float):
        if has("ge", "gt") and has("le", "lt"):
            return None
        return f"{base.__name__} needs a lower and an upper bound"
    if base in (datetime, AwareDatetime):
        if base is AwareDatetime and screened:
            return None
        return "a datetime must be a Moment (aware, in range, in UTC)"
    return unchecked(base)


def unchecked(hint: Any) -> str | None:
    """What in ``hint`` would let a value through unchecked, or ``None`` when nothing would."""
    origin, args = get_origin(hint), get_args(hint)
    if origin is Annotated:
        return _constrained(args[0], hint.__metadata__)
    if origin in (Union, types.UnionType):
        return next((gap for arg in args if (gap := unchecked(arg)) is not None), None)
    if origin in _COLLECTIONS:
        items = [arg for arg in args if arg is not Ellipsis]
        if not items:
            return f"{hint!r} does not say what it holds"
        return next((gap for arg in items if (gap := unchecked(arg)) is not None), None)
    if origin in (dict, Mapping) and len(args) == 2:
        return next((gap for arg in args if (gap := unchecked(arg)) is not None), None)
    if origin is Literal or origin is Callable or hint in _PLAIN:
        return None
    if isinstance(hint, type) and issubclass(hint, BaseModel):
        return None  # a model validates its own fields
    if hint in (str, int, float, datetime, AwareDatetime):
        return _constrained(hint, ())
    return f"{hint!r} is not validated"


def _parameters(func: Callable[..., Any]) -> list[inspect.Parameter]:
    params = list(inspect.signature(func).parameters.values())
    if params and params[0].name in ("self", "cls"):
        params = params[1:]
    return params


def gaps(func: Callable[..., Any]) -> list[str]:
    """Every parameter of ``func`` that its annotation does not check, with the reason."""
    hints = _hints(func, include_extras=True)
    found = []
    for param in _parameters(func):
        hint = hints.get(param.name)
        gap = "no annotation" if hint is None else unchecked(hint)
        if gap is not None:
            found.append(f"{func.__qualname__}({param.name}): {gap}")
    return found


def _details(loc: tuple[str | int, ...], exc: ValidationError) -> list[InitErrorDetails]:
    return [
        InitErrorDetails(
            type=PydanticCustomError("invalid_argument", error["msg"]),
            loc=(*loc, *error["loc"]),
            input=error.get("input"),
        )
        for error in exc.errors()
    ]


def _each(title: str, name: str, adapter: TypeAdapter[Any], values: Iterator[Any]) -> Iterator[Any]:
    """Validate a stream item by item as it is consumed (it may be too long to hold)."""
    for index, value in enumerate(values):
        try:
            yield adapter.validate_python(value)
        except ValidationError as exc:
            raise ValidationError.from_exception_data(title, _details((name, index), exc)) from None


def _check(title: str, name: str, hint: Any) -> Callable[[Any], Any]:
    """The function that validates (and normalizes) one argument."""
    members = get_args(hint) if get_origin(hint) in (Union, types.UnionType) else (hint,)
    streams = [m for m in members if get_origin(m) is Iterable]
    if not streams:
        return TypeAdapter(hint).validate_python
    # An iterator is checked as it is read; a collection whole, before any work starts (pydantic
    # would check an Iterable lazily, with errors that do not name the parameter).
    (item,) = get_args(streams[0])
    one: TypeAdapter[Any] = TypeAdapter(item)
    whole: TypeAdapter[Any] = TypeAdapter(
        functools.reduce(
            operator.or_,
            [types.GenericAlias(list, (item,)) if m in streams else m for m in members],
        )
    )

    def check(value: Any) -> Any:
        if isinstance(value, Iterator):
            return _each(title, name, one, value)
        return whole.validate_python(value)

    return check


def checked(func: Callable[P, R]) -> Callable[P, R]:
    """Validate every argument ``func`` is given by its type hint; refuse to run a ``func``
    whose hints leave a parameter unchecked."""
    signature = inspect.signature(func)
    title = func.__name__
    checks: dict[str, Callable[[Any], Any]] | None = None

    def prepare() -> dict[str, Callable[[Any], Any]]:
        # On first call, not at decoration: hints may name classes defined after ``func``.
        problems = gaps(func)
        if problems:
            raise TypeError("; ".join(problems))
        hints = _hints(func, include_extras=True)
        return {p.name: _check(title, p.name, hints[p.name]) for p in _parameters(func)}

    @functools.wraps(func)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        nonlocal checks
        if checks is None:
            checks = prepare()
        bound = signature.bind(*args, **kwargs)
        errors: list[InitErrorDetails] = []
        for name, value in bound.arguments.items():
            check = checks.get(name)
            if check is None:
                continue  # self / cls
            try:
                bound.arguments[name] = check(value)
            except ValidationError as exc:
                errors.extend(_details((name,), exc))
        if errors:
            raise ValidationError.from_exception_data(title, errors)
        return func(*bound.args, **bound.kwargs)

    wrapper.__checked__ = True  # type: ignore[attr-defined]
    return wrapper

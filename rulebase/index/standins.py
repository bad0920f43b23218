"""Stand-ins for the modules Whoosh imports and a read of the index never uses.

Opening an index imports Whoosh's analysis, fields, storage and codec modules, and with them
modules that serve the network, writing and dates. `spare()` stands a placeholder in for each
while those Whoosh modules are first imported, then withdraws it from `sys.modules`, so any later
import of one gets the real module:

- urllib.request, for whoosh.compat's `urlretrieve` (and with it ssl, http.client and email:
  60 ms of a cold search; the index is local and rulebase uses no network);
- the Porter stemmer and double metaphone that whoosh.analysis binds as defaults (8.5 million
  instructions, most of it their 15 patterns compiling: rulebase's analysers name the Snowball
  stemmers);
- html (compat's `htmlescape`), shutil (copying a compound file), queue (the multiprocess
  writer), random (temporary file names), tempfile (temporary storage), datetime, calendar and
  fnmatch (date fields and wildcard field names) and the Levenshtein automata (the codec's fuzzy
  term walk; spelling.py imports them for itself when a word is unknown);
- hashlib, bound for md5, which hashes every term a search looks up (filetables.md5_hash): the
  interpreter's own _md5 gives the same digest without loading OpenSSL;
- threading, bound for Lock, which is _thread's allocate_lock (threading.py binds it so), and
  copy, bound for copying an open file's reader;
- decimal, bound for Decimal, which only a NUMERIC field storing decimals uses (the schema has
  none): the stand-in class forwards `isinstance` and calls to the real one, and a NUMERIC field
  declared with `numtype=decimal.Decimal` is refused with a TypeError (`numtype is Decimal`).

Measured with valgrind on a cold `rulebase search "damage prevention"` (PYTHONHASHSEED=0), the
modules from html on (with core/eras.py's day arithmetic, which no longer imports datetime)
spare about 51 million of its 509 million instructions, decimal's stand-in 4.3 million of them.

A name imported from a module (`from hashlib import md5`) stands in as a function that imports
the module when called; a module bound whole (`import random`) stands in as a _Deferred module
whose first attribute read imports it. Snowball is spared differently (spare_snowball).
"""

from __future__ import annotations

import _thread
import os
import sys
import types

# module -> the names Whoosh imports from it (each a function)
_NAMES = {"urllib.request": ("urlretrieve",), "whoosh.lang.porter": ("stem",),
          "whoosh.lang.dmetaphone": ("double_metaphone",), "html": ("escape",), "shutil": ("copyfileobj",),
          "hashlib": ("md5",), "whoosh.util.times": ("datetime_to_long", "long_to_datetime"), "copy": ("copy",),
          "threading": ("Lock",), "decimal": ("Decimal",)}
# modules Whoosh binds whole
_MODULES = ("queue", "random", "calendar", "tempfile", "datetime", "fnmatch", "whoosh.automata.lev")
# the Whoosh modules that import them, all of which opening an index imports anyway
_READING = ("whoosh.analysis", "whoosh.index", "whoosh.filedb.filestore", "whoosh.filedb.filetables",
            "whoosh.filedb.compound", "whoosh.codec.whoosh3")


def _forward(module: str, name: str):
    """A stand-in for `module.name` that imports the real module when called."""

    def call(*args, **kwargs):  # pragma: no cover - a search calls none of them
        import importlib

        return getattr(importlib.import_module(module), name)(*args, **kwargs)

    return call


def _md5():
    """hashlib.md5 for Whoosh's term tables: the interpreter's own _md5 module's, where it has one
    (bound once: Whoosh calls it for every term a search looks up)."""
    try:
        from _md5 import md5
    except ImportError:  # pragma: no cover - an interpreter built without it
        return _forward("hashlib", "md5")
    return md5


class _ForwardedType(type):
    """The type of a stand-in class: an instance check or a call imports the real class."""

    def __instancecheck__(cls, instance) -> bool:
        return isinstance(instance, cls.real())

    def __call__(cls, *args, **kwargs):
        return cls.real()(*args, **kwargs)

    def real(cls) -> type:
        import importlib

        return getattr(importlib.import_module(cls.__module__), cls.__name__)


class _Decimal(metaclass=_ForwardedType):
    """decimal.Decimal's stand-in (see the module's note)."""


_Decimal.__module__, _Decimal.__name__, _Decimal.__qualname__ = "decimal", "Decimal", "Decimal"
# the stand-ins that are not forwarding functions
_SAME = {("hashlib", "md5"): _md5(), ("threading", "Lock"): _thread.allocate_lock,
         ("decimal", "Decimal"): _Decimal}


class _Deferred(types.ModuleType):
    """A module bound by name whose first attribute read imports the real one."""

    def __getattr__(self, name: str):
        import importlib

        if sys.modules.get(self.__name__) is self:  # pragma: no cover - withdrawn before any use
            del sys.modules[self.__name__]
        return getattr(importlib.import_module(self.__name__), name)


def spare() -> None:
    """Import Whoosh's reading modules with the stand-ins in place, then withdraw them; once a
    process, before the first whoosh import."""
    if "whoosh.analysis" in sys.modules:
        return
    standing = {}
    for module, names in _NAMES.items():
        if module not in sys.modules:
            placeholder = types.ModuleType(module)
            for name in names:
                setattr(placeholder, name, _SAME.get((module, name)) or _forward(module, name))
            sys.modules[module] = standing[module] = placeholder
    for module in _MODULES:
        if module not in sys.modules:
            sys.modules[module] = standing[module] = _Deferred(module)
    try:
        for module in _READING:
            __import__(module)
    finally:
        for module, placeholder in standing.items():
            if sys.modules.get(module) is placeholder:
                del sys.modules[module]
            parent, _, child = module.rpartition(".")
            if getattr(sys.modules.get(parent), child, None) is placeholder:
                delattr(sys.modules[parent], child)
    spare_snowball()


def spare_snowball() -> None:
    """Opening an index unpickles its schema, whose analysers name the English and Hungarian
    Snowball stemmers; importing either runs the snowball package's __init__, which imports all
    fourteen languages (3-4 ms of a cold search). Import the two through a placeholder package,
    then withdraw it: a later import finds them imported, and one of the package itself (the
    build's stemmer_for_language) runs its __init__ as before."""
    if "whoosh.lang.snowball" in sys.modules:
        return
    import whoosh.lang

    placeholder = types.ModuleType("whoosh.lang.snowball")
    placeholder.__path__ = [os.path.join(os.path.dirname(whoosh.lang.__file__), "snowball")]
    sys.modules["whoosh.lang.snowball"] = placeholder
    try:
        import whoosh.lang.snowball.english
        import whoosh.lang.snowball.hungarian  # noqa: F401
    finally:
        if sys.modules.get("whoosh.lang.snowball") is placeholder:
            del sys.modules["whoosh.lang.snowball"]
        if getattr(whoosh.lang, "snowball", None) is placeholder:
            del whoosh.lang.snowball

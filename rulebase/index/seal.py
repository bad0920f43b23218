"""Which index generations this user's rulebase built: a keyed digest of each generation's meta.json.

Whoosh unpickles its table of contents when an index is opened, so a crafted index folder (a
pickle that runs a command, with meta.json rewritten to match) would run code. A build signs
its meta.json with a per-user key kept outside every index folder ($XDG_STATE_HOME/rulebase/key,
created 0600 on first build); meta.json records every file's keyed digest (digests.py: every
file, in every subfolder, checked before Whoosh or SQLite opens one; no file may be there that
meta.json does not list). Readers check the seal, then the digests (digests.trusted); a folder that fails is
damage (rebuilt, or refused when read-only), never opened. The build cache is sealed the same
way (build/cache.py: seal_of, sealed).

Every keyed digest is BLAKE2b in its keyed mode (a MAC by design, RFC 7693), taken from hashlib's
own `_blake2` module: `import hashlib` loads the OpenSSL bindings first, and with `hmac` that was
about 4 ms of every cold command (`python -X importtime`, 3.5 ms for `_hashlib` alone). Hashing
is slower than OpenSSL's SHA-256 (0.34 s against 0.13 s for 150 MB), which only a build or the
first read after a copy pays.
"""

from __future__ import annotations

import os
from _operator import _compare_digest as same_digest  # hmac.compare_digest, without importing hmac

from rulebase.core.paths import read_bytes, user_folder

try:
    from _blake2 import blake2b  # hashlib's BLAKE2 (see above)
except ImportError:  # an interpreter built without it: hashlib's own fallback
    from hashlib import blake2b

SEAL = "meta.seal"  # beside meta.json in each generation
KEY_BYTES = 32


def state_dir() -> str:
    """$XDG_STATE_HOME/rulebase, else ~/.local/state/rulebase (a string: core/paths.py)."""
    return user_folder("XDG_STATE_HOME", ".local/state")


def keep(path: str | os.PathLike, data: bytes) -> None:
    """Write a file of the state folder whole (a temporary file renamed over it), quietly not when
    the folder is not writable: what is kept there is only ever a shortcut, read again if missing."""
    # lazy: a read that writes nothing never needs it
    import contextlib

    folder, name = os.path.split(os.fspath(path))
    tmp = os.path.join(folder, f".{name}.{os.getpid()}.tmp")
    with contextlib.suppress(OSError):
        os.makedirs(folder, mode=0o700, exist_ok=True)
        with open(tmp, "wb") as handle:
            handle.write(data)
        os.replace(tmp, path)
    with contextlib.suppress(OSError):
        os.unlink(tmp)


def user_key(create: bool = False) -> bytes | None:
    """This user's signing key; made (0600, in a 0700 folder) when `create` and missing."""
    folder = state_dir()
    path = os.path.join(folder, "key")
    try:
        key = read_bytes(path)
        if len(key) == KEY_BYTES:
            return key
    except OSError:
        pass
    if not create:
        return None
    # lazy: only a first build makes a key
    import contextlib

    os.makedirs(folder, mode=0o700, exist_ok=True)
    key = os.urandom(KEY_BYTES)
    tmp = os.path.join(folder, f".key.{os.getpid()}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as handle:
        handle.write(key)
        handle.flush()
        os.fsync(handle.fileno())
    try:
        os.link(tmp, path)  # never replace a key another build made meanwhile
    except FileExistsError:
        pass
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
    return read_bytes(path)


def keyed(key: bytes, data: bytes = b"", size: int = 32) -> blake2b:
    """A keyed digest of `data` under `key` (BLAKE2b, `size` bytes), to update with more."""
    return blake2b(data, key=key, digest_size=size)


def seal_of(data: bytes) -> str:
    """The seal of `data` under this user's key (created if needed): what a build writes."""
    return keyed(user_key(create=True), data).hexdigest()


def sealed(data: bytes, seal: str) -> bool:
    """Whether `seal` is this user's seal of `data` (False without a key: nothing was sealed)."""
    key = user_key()
    return key is not None and same_digest(seal.strip(), keyed(key, data).hexdigest())


def sign(generation_dir: str | os.PathLike) -> None:
    """Write the seal of the generation's meta.json (at build time, key created if needed)."""
    with open(os.path.join(generation_dir, SEAL), "w", encoding="ascii") as handle:
        handle.write(seal_of(read_bytes(os.path.join(generation_dir, "meta.json"))) + "\n")


def problem(generation_dir: str | os.PathLike, meta: dict) -> str | None:
    """Why the generation's meta.json is not this user's build's (None: it is; its files are
    then digests.problem's to check)."""
    try:
        seal = read_bytes(os.path.join(generation_dir, SEAL)).decode("ascii").strip()
        data = read_bytes(os.path.join(generation_dir, "meta.json"))
    except (OSError, UnicodeDecodeError):
        return "it has no seal from this user's rulebase: built elsewhere or by an older version"
    if not sealed(data, seal):
        return "its meta.json is not sealed by this user's rulebase: built elsewhere or altered"
    return None

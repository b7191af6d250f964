# SPDX-FileCopyrightText: 2026 The Brook authors
# SPDX-License-Identifier: MIT
"""Brook from Python: kernels in a string, NumPy arrays as streams.

    import brook, numpy as np
    prog = brook.compile('''
        kernel void saxpy(float a, float x<>, float y<>, out float r<>) { r = a * x + y; }
        reduce void sum(float v<>, reduce float s<>) { s += v; }
    ''')
    x = np.arange(16, dtype=np.float32)
    r = prog.saxpy(2.0, x, x)      # a new array of x's shape
    total = prog.sum(r)            # a Python float

The kernels run on the backend BRT_RUNTIME names (cpu by default), or the one brook.use()
chooses before the first call. docs/python.md has the whole interface.
"""

import hashlib
import os
import re
import tempfile
import warnings

from . import _brook
from ._brook import Kernel, backend_name, backends, finish, stream
from ._layout import BRCC_FROM_PACKAGE

__all__ = ["CompileError", "Kernel", "Program", "backend_name", "backends", "compile",
           "finish", "stream", "use"]


class CompileError(Exception):
    """brcc rejected the source. `message` holds brcc's diagnostics; `file`, `line` and `column`
    locate the first error (None where the C++ compiler failed: its messages went to stderr)."""

    def __init__(self, message, file=None, line=None, column=None):
        super().__init__(message)
        self.message = message
        self.file = file
        self.line = line
        self.column = column


class Program:
    """A compiled source: each kernel is an attribute, `prog.saxpy(...)`."""

    def __init__(self, kernels, library):
        self.kernels = {kernel.name: kernel for kernel in kernels}
        self.library = library

    def __getattr__(self, name):
        try:
            return self.__dict__["kernels"][name]
        except KeyError:
            raise AttributeError(f"the program has no kernel '{name}' (it has: "
                                 f"{', '.join(self.__dict__['kernels']) or 'none'})") from None

    def __dir__(self):
        return sorted(set(super().__dir__()) | set(self.kernels))

    def dtype(self, type_name):
        """The NumPy dtype of arrays of the element type `type_name` (a struct of the source's,
        as its kernels' parameters lay it out), for building their arguments."""
        for kernel in self.kernels.values():
            found = kernel.element_dtypes().get(type_name)
            if found is not None:
                return found
        raise KeyError(f"no parameter of the program's kernels has the type '{type_name}'")

    def __repr__(self):
        return f"<brook.Program {', '.join(self.kernels)}>"


def use(name):
    """Runs this thread's calls, and those of threads that have not called Brook yet, on the
    backend `name` ("cpu", "gl", "cuda", "vulkan", "mpi"), as BRT_RUNTIME would."""
    _brook.use(name)


def _brcc():
    path = os.path.normpath(os.path.join(os.path.dirname(__file__), BRCC_FROM_PACKAGE))
    if not os.path.isfile(path):
        raise CompileError(f"brook: brcc is not at {path}, where this module expects it "
                           "(install libbrook-dev with python3-brook)")
    return path


def _cache_folder():
    base = os.environ.get("XDG_CACHE_HOME", "")
    if not os.path.isabs(base):
        base = os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "brook", "python")


def _cache_key(text, name, include_dirs, brcc):
    """What the library depends on besides the text: the toolchain (brcc and this module,
    rebuilt with any change to Brook's headers), the C++ compiler and the include path."""
    digest = hashlib.sha256()
    for part in (text, name, os.environ.get("CXX", ""), *include_dirs):
        digest.update(part.encode() + b"\0")
    for path in (brcc, _brook.__file__):
        status = os.stat(path)
        digest.update(f"{path}:{status.st_size}:{status.st_mtime_ns}\0".encode())
    return digest.hexdigest()[:32]


_ERROR = re.compile(r"^(.*?):(\d+):(\d+): (?:fatal )?error: (.*)$", re.MULTILINE)


def _compile_error(diagnostics, written, name):
    text = diagnostics.replace(written, name) if written else diagnostics
    if not text:
        return CompileError(f"brook: building {name} failed: the C++ compiler's or brcc's "
                            "driver's messages are above, on stderr")
    first = _ERROR.search(text)
    if first is None:
        return CompileError(text)
    return CompileError(text, first.group(1), int(first.group(2)), int(first.group(3)))


def compile(source, *, include_dirs=()):
    """Compiles Brook source text, or the .br file at the path `source`, and loads its kernels.

    The shared library is cached under $XDG_CACHE_HOME/brook/python by the source's content, so
    compiling the same source again runs no compiler. Raises CompileError (with file, line and
    column) for a program brcc rejects."""
    if isinstance(source, os.PathLike) or ("\n" not in source and source.endswith(".br")):
        path = os.fspath(source)
        with open(path, encoding="utf-8") as file:
            text = file.read()
        name = path
        include_dirs = (os.path.dirname(os.path.abspath(path)), *include_dirs)
    else:
        text, name, path = source, "<string>", None
        include_dirs = (os.getcwd(), *include_dirs)
    brcc = _brcc()
    folder = os.path.join(_cache_folder(), _cache_key(text, name, include_dirs, brcc))
    library = os.path.join(folder, "kernels.so")
    if not os.path.isfile(library):
        os.makedirs(os.path.dirname(folder), exist_ok=True)
        # Built aside and renamed into place, so that processes compiling the same source at
        # once each find a whole library or none.
        with tempfile.TemporaryDirectory(dir=os.path.dirname(folder)) as work:
            written = None
            if path is None:
                written = os.path.join(work, "source.br")
                with open(written, "w", encoding="utf-8") as file:
                    file.write(text)
            built, diagnostics = _brook.build(written or path, os.path.join(work, "kernels.so"),
                                              brcc, list(include_dirs))
            if not built:
                raise _compile_error(diagnostics, written, name)
            if diagnostics:
                warnings.warn(diagnostics.replace(written, name) if written else diagnostics,
                              stacklevel=2)
            os.makedirs(folder, exist_ok=True)
            os.replace(os.path.join(work, "kernels.so"), library)
    return Program(_brook.load(library), library)

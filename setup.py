"""Build the compiled kernels (`kernels._native`): Cython over C sources in kernels/src.

Every ISA path is compiled into the one extension with per-function target attributes and
chosen at run time, so no flag here may assume the build machine's CPU (no -march=native).
"""

from __future__ import annotations

import os
import platform

import numpy as np
from Cython.Build import cythonize
from setuptools import Extension, setup

SOURCES = ["kernels/_native.pyx", "kernels/src/nd_kernels.c", "kernels/src/nd_engine.c"]

# -ffp-contract=off: the int8 paths promise the same bits on every ISA, which a fused
# multiply-add the compiler introduces on one target but not another would break.
CFLAGS = [
    "-O3",
    "-std=gnu11",
    "-ffp-contract=off",
    "-fno-math-errno",
    "-Wall",
    "-Wno-unused-function",
    # nd_vec_impl.h passes 8-float vectors between static functions of one ISA instantiation;
    # the note about their calling convention across ISAs does not apply
    "-Wno-psabi",
]
if platform.machine().lower() in ("aarch64", "arm64"):
    # Baseline armv8-a; the dot-product kernels carry their own target attribute.
    CFLAGS += ["-march=armv8-a"]
CFLAGS += os.environ.get("NEEDLED_CFLAGS", "").split()

ext = Extension(
    "kernels._native",
    SOURCES,
    include_dirs=[np.get_include(), "kernels/src", "kernels"],
    define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")],
    extra_compile_args=CFLAGS,
    extra_link_args=["-lpthread"],
    depends=[
        os.path.join("kernels/src", f)
        for f in os.listdir("kernels/src")
        if f.endswith((".h", ".c"))
    ],
)

setup(ext_modules=cythonize([ext], compiler_directives={"language_level": 3}))

# SPDX-License-Identifier: ISC
"""The build steps pyproject.toml's metadata cannot say: the version from
include/dpsel.h, libdpsel.so built by the project's Makefile and put into
the package (dpsel/libdpsel.so.0, which dpsel._native.lib loads first), and a wheel
tagged for this platform, since it carries a shared library.

The package is built from a checkout of dpsel: python/ beside the Makefile.
"""

import os
import pathlib
import re
import shutil
import subprocess

from setuptools import Distribution, setup
from setuptools.command.build_py import build_py

try:  # setuptools 70.1 and later
    from setuptools.command.bdist_wheel import bdist_wheel
except ImportError:  # Debian 12: python3-wheel's
    from wheel.bdist_wheel import bdist_wheel

ROOT = pathlib.Path(__file__).resolve().parent.parent
BUNDLED = "libdpsel.so.0"  # the SONAME, as dpsel._native.lib looks for it


def source_file(relative):
    """A file of the checkout, or an error saying where the build must run."""
    path = ROOT / relative
    if not path.is_file():
        raise SystemExit(f"dpsel: {path} is missing: the Python package builds libdpsel with the "
                         "project's Makefile, so build it from a checkout of dpsel "
                         "(pip install ./python at the checkout's root).")
    return path


def version():
    """DPSEL_VERSION of include/dpsel.h: the one place the version is written."""
    header = source_file("include/dpsel.h").read_text(encoding="utf-8")
    found = re.search(r'^#define DPSEL_VERSION "([0-9.]+)"', header, re.MULTILINE)
    if not found:
        raise SystemExit("dpsel: no #define DPSEL_VERSION \"...\" in include/dpsel.h")
    return found.group(1)


class BuildWithLibrary(build_py):
    """build_py, then `make` for the shared library in setuptools' temporary
    folder, copied into the package."""

    def run(self):
        super().run()
        source_file("Makefile")
        build_dir = pathlib.Path(self.get_finalized_command("build").build_temp).resolve() / "c"
        target = build_dir / f"libdpsel.so.{version()}"
        # An enclosing make's flags (BUILD=..., a job server) are not this build's.
        env = {key: value for key, value in os.environ.items()
               if key not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL")}
        subprocess.run(["make", "-C", str(ROOT), f"-j{os.cpu_count() or 1}",
                        f"BUILD={build_dir}", str(target)], env=env, check=True)
        package_dir = pathlib.Path(self.build_lib) / "dpsel"
        package_dir.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(target, package_dir / BUNDLED)


class WithLibrary(Distribution):
    """A distribution that carries a compiled library, so that its files go
    to the platform's folder (platlib), not to the pure Python one."""

    def has_ext_modules(self):
        return True


class PlatformWheel(bdist_wheel):
    """A wheel for this platform (it holds libdpsel.so), for any Python 3:
    the package is ctypes over the library, with no extension module."""

    def get_tag(self):
        _, _, platform = super().get_tag()
        return "py3", "none", platform


setup(version=version(), distclass=WithLibrary,
      cmdclass={"build_py": BuildWithLibrary, "bdist_wheel": PlatformWheel})

# SPDX-License-Identifier: ISC
"""The ctypes plumbing under the public modules: lib loads libdpsel and
declares every C function and structure mirror of include/dpsel.h; convert
turns Python values into the C types, refusing what does not fit.  Nothing
here is public API: the modules of dpsel call it, callers never need to."""

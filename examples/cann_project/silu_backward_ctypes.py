#!/usr/bin/env python3
"""aclnnSiluBackward from Python, the way Python programs use CANN: libascendcl.so,
libnnopbase.so and libopapi.so loaded by name with ctypes (found through LD_LIBRARY_PATH,
which `source <prefix>/set_env.sh` sets), the operator run on host buffers through a
stream. Nothing here names hostnn. Exits 1 if a result is off by more than 1e-5."""

import ctypes
import math
import sys

ACL_FLOAT = 0
ACL_FORMAT_ND = 2

acl = ctypes.CDLL("libascendcl.so")
nnopbase = ctypes.CDLL("libnnopbase.so")
opapi = ctypes.CDLL("libopapi.so")

i64p = ctypes.POINTER(ctypes.c_int64)
acl.aclInit.argtypes = [ctypes.c_char_p]
acl.aclrtSetDevice.argtypes = [ctypes.c_int32]
acl.aclrtResetDevice.argtypes = [ctypes.c_int32]
acl.aclrtGetSocName.restype = ctypes.c_char_p
acl.aclrtCreateStream.argtypes = [ctypes.POINTER(ctypes.c_void_p)]
acl.aclrtSynchronizeStream.argtypes = [ctypes.c_void_p]
acl.aclrtDestroyStream.argtypes = [ctypes.c_void_p]
acl.aclGetRecentErrMsg.restype = ctypes.c_char_p
nnopbase.aclCreateTensor.restype = ctypes.c_void_p
nnopbase.aclCreateTensor.argtypes = [i64p, ctypes.c_uint64, ctypes.c_int, i64p, ctypes.c_int64,
                                     ctypes.c_int, i64p, ctypes.c_uint64, ctypes.c_void_p]
nnopbase.aclDestroyTensor.argtypes = [ctypes.c_void_p]
opapi.aclnnSiluBackwardGetWorkspaceSize.argtypes = [
    ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.POINTER(ctypes.c_uint64),
    ctypes.POINTER(ctypes.c_void_p)]
opapi.aclnnSiluBackward.argtypes = [ctypes.c_void_p, ctypes.c_uint64, ctypes.c_void_p,
                                    ctypes.c_void_p]


def check(status, what):
    if status != 0:
        sys.exit(f"{what} failed: {status} {acl.aclGetRecentErrMsg().decode()}")


def tensor(buffer, shape):
    dims = (ctypes.c_int64 * len(shape))(*shape)
    strides = [1] * len(shape)
    for i in range(len(shape) - 2, -1, -1):
        strides[i] = strides[i + 1] * shape[i + 1]
    t = nnopbase.aclCreateTensor(dims, len(shape), ACL_FLOAT,
                                 (ctypes.c_int64 * len(shape))(*strides), 0, ACL_FORMAT_ND,
                                 dims, len(shape), ctypes.cast(buffer, ctypes.c_void_p))
    if not t:
        sys.exit("aclCreateTensor failed: " + acl.aclGetRecentErrMsg().decode())
    return t


def main():
    check(acl.aclInit(None), "aclInit")
    check(acl.aclrtSetDevice(0), "aclrtSetDevice")
    stream = ctypes.c_void_p()
    check(acl.aclrtCreateStream(ctypes.byref(stream)), "aclrtCreateStream")
    print("SoC:", acl.aclrtGetSocName().decode())

    shape = [2, 3]
    grad_out = (ctypes.c_float * 6)(1, 1, 1, 1, 1, 1)
    x = (ctypes.c_float * 6)(-3, -1, 0, 1, 2, 4)
    grad_in = (ctypes.c_float * 6)()
    t_dy, t_x, t_dx = tensor(grad_out, shape), tensor(x, shape), tensor(grad_in, shape)

    workspace_size = ctypes.c_uint64()
    executor = ctypes.c_void_p()
    check(opapi.aclnnSiluBackwardGetWorkspaceSize(t_dy, t_x, t_dx, ctypes.byref(workspace_size),
                                                  ctypes.byref(executor)),
          "aclnnSiluBackwardGetWorkspaceSize")
    workspace = (ctypes.c_char * max(workspace_size.value, 1))()
    check(opapi.aclnnSiluBackward(workspace, workspace_size, executor, stream), "aclnnSiluBackward")
    check(acl.aclrtSynchronizeStream(stream), "aclrtSynchronizeStream")

    worst = 0.0
    for i in range(6):
        s = 1.0 / (1.0 + math.exp(-x[i]))
        want = grad_out[i] * s * (1.0 + x[i] * (1.0 - s))
        worst = max(worst, abs(grad_in[i] - want))
        print(f"gradInput[{i}] = {grad_in[i]:.6f} (x = {x[i]:g}, expected {want:.6f})")

    for t in (t_dy, t_x, t_dx):
        nnopbase.aclDestroyTensor(t)
    check(acl.aclrtDestroyStream(stream), "aclrtDestroyStream")
    check(acl.aclrtResetDevice(0), "aclrtResetDevice")
    check(acl.aclFinalize(), "aclFinalize")
    print("ctypes aclnnSiluBackward:", "OK" if worst <= 1e-5 else f"FAILED (max error {worst})")
    return 0 if worst <= 1e-5 else 1


if __name__ == "__main__":
    sys.exit(main())

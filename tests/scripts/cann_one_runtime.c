/* ctest install_cann_one_runtime: dlopens the CANN-named libraries of the install, in the
 * order given on the command line, each RTLD_LOCAL (so nothing is shared by symbol
 * merging), and takes every call from a different library than the state it touches:
 * a stream from libascendcl runs an operator of libopapi_nn and then of libopapi; tensors
 * and the executor's repeatability come from libnnopbase; an error raised in libascendcl
 * is read back through libnnopbase. It passes only if the libraries share one runtime. */
#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "acl/acl.h"
#include "aclnnop/aclnn_silu_backward.h"

static void* libs[5];
static const char* names[5];
static int nlibs;

static void* Sym(const char* lib, const char* name) {
  for (int i = 0; i < nlibs; ++i) {
    if (strcmp(names[i], lib) == 0) {
      void* p = dlsym(libs[i], name);
      if (p == NULL) fprintf(stderr, "%s has no %s\n", lib, name);
      return p;
    }
  }
  fprintf(stderr, "%s was not loaded\n", lib);
  return NULL;
}

#define CHECK(cond)                                             \
  do {                                                          \
    if (!(cond)) {                                              \
      fprintf(stderr, "line %d: %s failed\n", __LINE__, #cond); \
      return 1;                                                 \
    }                                                           \
  } while (0)

int main(int argc, char** argv) {
  for (int i = 1; i < argc && nlibs < 5; ++i) {
    char path[256];
    snprintf(path, sizeof(path), "lib%s.so", argv[i]);
    libs[nlibs] = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (libs[nlibs] == NULL) {
      fprintf(stderr, "dlopen %s: %s\n", path, dlerror());
      return 1;
    }
    names[nlibs++] = argv[i];
  }
  aclError (*set_device)(int32_t) = (aclError(*)(int32_t))Sym("ascendcl", "aclrtSetDevice");
  aclError (*create_stream)(aclrtStream*) =
      (aclError(*)(aclrtStream*))Sym("ascendcl", "aclrtCreateStream");
  aclError (*sync)(aclrtStream) =
      (aclError(*)(aclrtStream))Sym("ascendcl", "aclrtSynchronizeStream");
  aclError (*destroy_stream)(aclrtStream) =
      (aclError(*)(aclrtStream))Sym("ascendcl", "aclrtDestroyStream");
  const char* (*recent)(void) = (const char* (*)(void))Sym("nnopbase", "aclGetRecentErrMsg");
  aclTensor* (*create_tensor)(const int64_t*, uint64_t, aclDataType, const int64_t*, int64_t,
                              aclFormat, const int64_t*, uint64_t, void*) =
      (aclTensor * (*)(const int64_t*, uint64_t, aclDataType, const int64_t*, int64_t, aclFormat,
                       const int64_t*, uint64_t, void*)) Sym("nnopbase", "aclCreateTensor");
  aclnnStatus (*destroy_tensor)(const aclTensor*) =
      (aclnnStatus(*)(const aclTensor*))Sym("nnopbase", "aclDestroyTensor");
  aclnnStatus (*repeatable)(aclOpExecutor*) =
      (aclnnStatus(*)(aclOpExecutor*))Sym("nnopbase", "aclSetAclOpExecutorRepeatable");
  aclnnStatus (*destroy_executor)(aclOpExecutor*) =
      (aclnnStatus(*)(aclOpExecutor*))Sym("nnopbase", "aclDestroyAclOpExecutor");
  aclnnStatus (*phase1)(const aclTensor*, const aclTensor*, aclTensor*, uint64_t*,
                        aclOpExecutor**) =
      (aclnnStatus(*)(const aclTensor*, const aclTensor*, aclTensor*, uint64_t*,
                      aclOpExecutor**))Sym("opapi_nn", "aclnnSiluBackwardGetWorkspaceSize");
  aclnnStatus (*run_nn)(void*, uint64_t, aclOpExecutor*, aclrtStream) = (aclnnStatus(*)(
      void*, uint64_t, aclOpExecutor*, aclrtStream))Sym("opapi_nn", "aclnnSiluBackward");
  aclnnStatus (*run_opapi)(void*, uint64_t, aclOpExecutor*, aclrtStream) = (aclnnStatus(*)(
      void*, uint64_t, aclOpExecutor*, aclrtStream))Sym("opapi", "aclnnSiluBackward");
  CHECK(set_device && create_stream && sync && destroy_stream && recent && create_tensor &&
        destroy_tensor && repeatable && destroy_executor && phase1 && run_nn && run_opapi);

  /* One error-message store: a failure in libascendcl, read through libnnopbase. */
  CHECK(set_device(7) != ACL_SUCCESS);
  CHECK(strstr(recent(), "aclrtSetDevice") != NULL);

  /* One stream registry and one executor registry. */
  aclrtStream stream = NULL;
  CHECK(create_stream(&stream) == ACL_SUCCESS);
  const int64_t shape[1] = {4};
  float dy[4] = {1, 1, 1, 1}, x[4] = {-2, 0, 1, 3}, dx[4] = {0, 0, 0, 0};
  aclTensor* tdy = create_tensor(shape, 1, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, shape, 1, dy);
  aclTensor* tx = create_tensor(shape, 1, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, shape, 1, x);
  aclTensor* tdx = create_tensor(shape, 1, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, shape, 1, dx);
  CHECK(tdy && tx && tdx);
  uint64_t ws = 0;
  aclOpExecutor* executor = NULL;
  CHECK(phase1(tdy, tx, tdx, &ws, &executor) == ACLNN_SUCCESS);
  CHECK(ws == 0);
  CHECK(repeatable(executor) == ACLNN_SUCCESS);
  CHECK(run_nn(NULL, 0, executor, stream) == ACLNN_SUCCESS);
  CHECK(sync(stream) == ACL_SUCCESS);
  for (int i = 0; i < 4; ++i) {
    const double s = 1.0 / (1.0 + exp(-x[i]));
    CHECK(fabs(dx[i] - s * (1.0 + x[i] * (1.0 - s))) < 1e-5);
    dx[i] = 0;
  }
  CHECK(run_opapi(NULL, 0, executor, stream) == ACLNN_SUCCESS); /* still live: repeatable */
  CHECK(sync(stream) == ACL_SUCCESS);
  CHECK(dx[3] != 0);
  CHECK(destroy_executor(executor) == ACLNN_SUCCESS);
  CHECK(run_opapi(NULL, 0, executor, stream) == ACLNN_ERR_PARAM_INVALID); /* gone for all */
  CHECK(strstr(recent(), "not live") != NULL);
  CHECK(destroy_tensor(tdy) == ACLNN_SUCCESS && destroy_tensor(tx) == ACLNN_SUCCESS &&
        destroy_tensor(tdx) == ACLNN_SUCCESS);
  CHECK(destroy_stream(stream) == ACL_SUCCESS);
  printf("one runtime across:");
  for (int i = 0; i < nlibs; ++i) printf(" lib%s.so", names[i]);
  printf("\n");
  return 0;
}

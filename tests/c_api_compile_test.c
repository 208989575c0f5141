/* Proves the CANN-compatible headers are valid C: acl/acl.h and the aclnnop headers of the
 * seed documents' operators (SiluBackward, LogSigmoidBackward, HardsigmoidBackward,
 * LogSoftmaxBackward) compile as strict C99, every entry point converts to a pointer of its
 * seed signature, and a few calls link and behave. Built and run by
 * tests/scripts/CMakeLists.txt. */
#include <stdint.h>
#include <stdio.h>

#include "acl/acl.h"
#include "aclnnop/aclnn_hardsigmoid_backward.h"
#include "aclnnop/aclnn_logsigmoid_backward.h"
#include "aclnnop/aclnn_logsoftmax_backward.h"
#include "aclnnop/aclnn_silu_backward.h"

typedef aclnnStatus (*Phase2Fn)(void*, uint64_t, aclOpExecutor*, aclrtStream);

int main(void) {
  /* Phase 1 of each operator, with the seed documents' parameter lists. */
  aclnnStatus (*silu)(const aclTensor*, const aclTensor*, aclTensor*, uint64_t*, aclOpExecutor**) =
      aclnnSiluBackwardGetWorkspaceSize;
  aclnnStatus (*logsigmoid)(const aclTensor*, const aclTensor*, const aclTensor*, aclTensor*,
                            uint64_t*, aclOpExecutor**) = aclnnLogSigmoidBackwardGetWorkspaceSize;
  aclnnStatus (*hardsigmoid)(const aclTensor*, const aclTensor*, aclTensor*, uint64_t*,
                             aclOpExecutor**) = aclnnHardsigmoidBackwardGetWorkspaceSize;
  aclnnStatus (*logsoftmax)(const aclTensor*, const aclTensor*, int64_t, aclTensor*, uint64_t*,
                            aclOpExecutor**) = aclnnLogSoftmaxBackwardGetWorkspaceSize;
  const Phase2Fn phase2[4] = {aclnnSiluBackward, aclnnLogSigmoidBackward, aclnnHardsigmoidBackward,
                              aclnnLogSoftmaxBackward};
  uint32_t devices = 0;
  uint64_t ws = 0;
  aclOpExecutor* executor = NULL;
  const int64_t shape[2] = {2, 3};
  float data[6] = {0, 0, 0, 0, 0, 0};
  aclTensor* t = NULL;
  aclnnStatus st = 0;
  int failures = 0;
  int i = 0;

  if (aclrtGetDeviceCount(&devices) != ACL_SUCCESS || devices != 1) ++failures;
  t = aclCreateTensor(shape, 2, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, shape, 2, data);
  if (t == NULL) ++failures;
  /* A null gradInput: every operator answers ACLNN_ERR_PARAM_NULLPTR with a message. */
  if (silu(t, t, NULL, &ws, &executor) != ACLNN_ERR_PARAM_NULLPTR) ++failures;
  if (logsigmoid(t, t, t, NULL, &ws, &executor) != ACLNN_ERR_PARAM_NULLPTR) ++failures;
  if (hardsigmoid(t, t, NULL, &ws, &executor) != ACLNN_ERR_PARAM_NULLPTR) ++failures;
  if (logsoftmax(t, t, 0, NULL, &ws, &executor) != ACLNN_ERR_PARAM_NULLPTR) ++failures;
  if (aclGetRecentErrMsg()[0] == '\0') ++failures;
  for (i = 0; i < 4; ++i) {
    if (phase2[i](NULL, 0, NULL, NULL) == ACLNN_SUCCESS) ++failures;
  }
  /* The calls CANN programs commonly add, from C. */
  {
    aclDataType dtype = ACL_DT_UNDEFINED;
    int64_t offset = -1;
    int64_t one = 4;
    float alpha = 0.5f;
    char copy[4] = {0, 0, 0, 0};
    const char src[4] = {1, 2, 3, 4};
    aclIntArray* array = aclCreateIntArray(&one, 1);
    aclScalar* scalar = aclCreateScalar(&alpha, ACL_FLOAT);
    aclTensorList* list = aclCreateTensorList(NULL, 0);
    if (aclGetDataType(t, &dtype) != ACLNN_SUCCESS || dtype != ACL_FLOAT) ++failures;
    if (aclGetViewOffset(t, &offset) != ACLNN_SUCCESS || offset != 0) ++failures;
    if (aclGetViewOffset(NULL, &offset) != ACLNN_ERR_PARAM_NULLPTR) ++failures;
    if (array == NULL || scalar == NULL || list == NULL) ++failures;
    if (aclDestroyIntArray(array) != ACLNN_SUCCESS) ++failures;
    if (aclDestroyScalar(scalar) != ACLNN_SUCCESS) ++failures;
    if (aclDestroyTensorList(list) != ACLNN_SUCCESS) ++failures;
    if (aclrtGetSocName() == NULL) ++failures;
    if (aclrtMemcpyAsync(copy, 4, src, 4, ACL_MEMCPY_HOST_TO_HOST, NULL) != ACL_SUCCESS ||
        copy[3] != 4) {
      ++failures;
    }
  }
  st = aclDestroyTensor(t);
  if (st != ACLNN_SUCCESS) ++failures;
  printf("c_api_compile_test: %d failure(s)\n", failures);
  return failures == 0 ? 0 : 1;
}
